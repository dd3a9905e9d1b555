package main

import (
	"fmt"
	"io"
	"math"
	"strings"
)

// The headlines are the figures a reader looks for first, one line each:
// the kube layer end to end, each of its forms, the new-user path, the
// floor, and the SMD engine's target and like-for-like rows. Each is
// computed by the same functions as the section it sums up (geomeanOf,
// judgeNewUser, overRead, targetRows), so it cannot disagree with the
// tables below it.

// headlineForms are the end to end forms in the order of the headlines
// (the form that converts least first), each with its label there.
// TestHeadlineFormsAreTheForms checks that they are the forms of forms.
var headlineForms = []struct{ name, label string }{
	{"JSON", "JSON bytes in and out"},
	{"Unstructured", "`map[string]any` in and out"},
	{"Struct", "Go structs of the k8s.io/api types in and out"},
}

// indent marks a line of the headlines that is a part of the line above.
const indent = "&nbsp;&nbsp;"

// shortRatio formats a ratio as the headlines state it: one decimal, and
// none from 100 up ("6.7x", "128x").
func shortRatio(x float64) string {
	if math.Round(x*10) >= 1000 {
		return fmt.Sprintf("%.0fx", x)
	}
	return fmt.Sprintf("%.1fx", x)
}

// mdText returns s, a cell written with markdown's bold, code spans and
// indent, as the table prints it: unchanged in markdown, without the
// marks in plain text.
func mdText(s string) string {
	if markdown {
		return s
	}
	return strings.NewReplacer("**", "", "`", "", indent, "").Replace(s)
}

// headCells are g's time, allocation and bytes cells in the headlines. A
// lead line (the first of a group) says "faster" and "fewer" and has its
// time in bold. The bytes cell ends with geomean's note on the rows the
// memory means leave out, if they leave out any.
func (g geomean) headCells(lead bool) [3]string {
	t, a, b := shortRatio(g.time), "-", "-"
	if g.nMem > 0 {
		a, b = shortRatio(g.allocs), shortRatio(g.bytes)
		if lead {
			a, b = a+" fewer", b+" fewer"
		}
	}
	if lead {
		t = "**" + t + " faster**"
	}
	if note := g.memNote(); note != "" {
		b += " " + note
	}
	return [3]string{t, a, b}
}

// printHeadlines prints the headlines of the end to end rows e2e and the
// SMD engine's like-for-like rows fair; a line whose rows were not run is
// left out, and so is the whole section when none were.
func printHeadlines(w io.Writer, e2e, fair []row) {
	if len(e2e) == 0 && len(fair) == 0 {
		return
	}
	fmt.Fprintln(w, "headlines: geometric means over the rows of the tables below that each line names;")
	fmt.Fprintln(w, "ratios are the reference's over structmerge's, apimachinery's through the field manager and SMD's for the engine alone "+
		"(above 1: structmerge is faster, allocates less); the floor's are times over the read's")
	tw := newTable(w)
	line := func(label string, cells [3]string) {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t\n", mdText(label), mdText(cells[0]), mdText(cells[1]), mdText(cells[2]))
	}
	fmt.Fprintln(tw, "\ttime\tallocations\tbytes\t")
	if len(e2e) > 0 {
		line(fmt.Sprintf("through the Kubernetes field manager, end to end, %d rows", len(e2e)), geomeanOf(e2e).headCells(true))
	}
	for _, f := range headlineForms {
		if in := formRows(e2e, f.name); len(in) > 0 {
			line(fmt.Sprintf("%s%s, %d rows", indent, f.label, len(in)), geomeanOf(in).headCells(false))
		}
	}
	if j, ok := judgeNewUser(e2e); ok {
		cells := j.mean.headCells(false)
		cells[0] = fmt.Sprintf("%s (target %gx, no row under %gx: %s; slowest %s %s)",
			cells[0], newUserTarget, newUserFloor, j.verdict,
			strings.TrimPrefix(j.slowest.name, e2ePrefix+"Unstructured/"), shortRatio(timeRatio(j.slowest)))
		line(fmt.Sprintf("%sthe new-user path (below), %d rows", indent, len(j.rows)), cells)
	}
	if in := floorRows(e2e); len(in) > 0 {
		sm, am := overRead(in, smrgOf), overRead(in, refOf)
		line(fmt.Sprintf("the same requests from maps, against only reading their input once (the floor, below), %d rows", len(in)),
			[3]string{fmt.Sprintf("structmerge %s the read, apimachinery %s in the geometric mean; per row %s to %s and %s to %s",
				shortRatio(sm.mean), shortRatio(am.mean), shortRatio(sm.least), shortRatio(sm.most), shortRatio(am.least), shortRatio(am.most))})
	}
	if target := targetRows(fair); len(target) > 0 {
		line(fmt.Sprintf("the engine alone, SMD's workload, %d target rows", len(target)), geomeanOf(target).headCells(true))
	}
	if len(fair) > 0 {
		line(fmt.Sprintf("the engine alone, all %d like-for-like rows", len(fair)), geomeanOf(fair).headCells(false))
	}
	tw.Flush()
}
