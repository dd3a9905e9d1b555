package setasm

// InvariantsChecked tells the tests whether this build checks the sets the
// operations that trust their caller make.
var InvariantsChecked = nodes.Check != nil
