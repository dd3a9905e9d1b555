package schema

// SchemaSchemaYAML is the schema of the schema format itself, in that
// format: a Schema decoded from YAML validates against its type "schema",
// and so does this text.
var SchemaSchemaYAML = `types:
- name: schema
  map:
    fields:
    - name: types
      type:
        list:
          elementType:
            namedType: typeDef
          elementRelationship: associative
          keys: [name]
- name: typeDef
  map:
    fields:
    - name: name
      type: {scalar: string}
    - name: scalar
      type: {scalar: string}
    - name: list
      type: {namedType: list}
    - name: map
      type: {namedType: map}
    - name: untyped
      type: {namedType: untyped}
- name: typeRef
  map:
    fields:
    - name: namedType
      type: {scalar: string}
    - name: scalar
      type: {scalar: string}
    - name: list
      type: {namedType: list}
    - name: map
      type: {namedType: map}
    - name: untyped
      type: {namedType: untyped}
    - name: elementRelationship
      type: {scalar: string}
    - name: nullable
      type: {scalar: boolean}
- name: list
  map:
    fields:
    - name: elementType
      type: {namedType: typeRef}
    - name: elementRelationship
      type: {scalar: string}
    - name: keys
      type:
        list:
          elementType: {scalar: string}
          elementRelationship: associative
- name: map
  map:
    fields:
    - name: fields
      type:
        list:
          elementType: {namedType: structField}
          elementRelationship: associative
          keys: [name]
    - name: unions
      type:
        list:
          elementType: {namedType: union}
          elementRelationship: atomic
    - name: elementType
      type: {namedType: typeRef}
    - name: elementRelationship
      type: {scalar: string}
- name: structField
  map:
    fields:
    - name: name
      type: {scalar: string}
    - name: type
      type: {namedType: typeRef}
    - name: default
      type: {namedType: __untyped_atomic_}
- name: union
  map:
    fields:
    - name: discriminator
      type: {scalar: string}
    - name: deduceInvalidDiscriminator
      type: {scalar: boolean}
    - name: fields
      type:
        list:
          elementType: {namedType: unionField}
          elementRelationship: atomic
- name: unionField
  map:
    fields:
    - name: fieldName
      type: {scalar: string}
    - name: discriminatorValue
      type: {scalar: string}
- name: untyped
  map:
    fields:
    - name: elementRelationship
      type: {scalar: string}
- name: __untyped_atomic_
  scalar: untyped
  list:
    elementType: {namedType: __untyped_atomic_}
    elementRelationship: atomic
  map:
    elementType: {namedType: __untyped_atomic_}
    elementRelationship: atomic
`
