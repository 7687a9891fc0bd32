; Scala definitions and calls for coderecalld.parse (captures: see queries/python/tags.scm).
; Qualified names are dotted and file-relative (the package is not a prefix): Circle.area.
; A companion `object Circle` is a class of the same name as its class. Annotations are
; @decorator; the range starts at the first. Doc comments are the comment block above.
; Imports are not reported: the grammar keeps no node for a dotted import path.

(class_definition
  name: (identifier) @name
  body: (_)? @body) @definition.class

(object_definition
  name: (identifier) @name
  body: (_)? @body) @definition.class

(trait_definition
  name: (identifier) @name
  body: (_)? @body) @definition.trait

(enum_definition
  name: (identifier) @name
  body: (_) @body) @definition.enum

(function_definition
  name: (identifier) @name
  body: (_) @body) @definition.function

(function_declaration
  name: (identifier) @name) @definition.function

(type_definition
  name: (type_identifier) @name) @definition.type_alias

([(class_definition (annotation) @decorator name: (identifier) @name)
  (object_definition (annotation) @decorator name: (identifier) @name)
  (trait_definition (annotation) @decorator name: (identifier) @name)
  (function_definition (annotation) @decorator name: (identifier) @name)])

(call_expression
  function: (_) @name) @reference.call
