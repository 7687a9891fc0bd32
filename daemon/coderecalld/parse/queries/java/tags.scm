; Java definitions, calls and imports for coderecalld.parse. Captures: see queries/python/tags.scm.
;
; Qualified names are `pkg.Class.method(ParamTypes)`: @package is the package declaration,
; a method's @params list adds its parameter types so overloads never collide, and an
; anonymous class (`new Runnable() {...}`) is a class named `<anonymous Runnable>` inside
; the method that creates it. Annotations are @decorator (they sit inside the node's
; `modifiers`, so ranges already start there). Docstrings are the comments directly above.

(package_declaration [(identifier) (scoped_identifier)] @package)

(class_declaration
  name: (identifier) @name
  body: (class_body) @body) @definition.class

(record_declaration
  name: (identifier) @name
  body: (class_body) @body) @definition.class

(interface_declaration
  name: (identifier) @name
  body: (interface_body) @body) @definition.interface

(annotation_type_declaration
  name: (identifier) @name
  body: (annotation_type_body) @body) @definition.interface

(enum_declaration
  name: (identifier) @name
  body: (enum_body) @body) @definition.enum

(method_declaration
  name: (identifier) @name
  parameters: (formal_parameters) @params) @definition.function

(method_declaration
  name: (identifier) @name
  body: (block) @body)

(constructor_declaration
  name: (identifier) @name
  parameters: (formal_parameters) @params
  body: (constructor_body) @body) @definition.function

(object_creation_expression
  type: (_) @name @anonymous
  (class_body) @body) @definition.class

; An enum constant with a body (`LONG_OR_DOUBLE { Number readNumber(...) {...} }`) is a class
; named by the constant: its methods are `ToNumberPolicy.LONG_OR_DOUBLE.readNumber(...)`.
(enum_constant
  name: (identifier) @name
  body: (class_body) @body) @definition.class

[
  (class_declaration (modifiers [(marker_annotation) (annotation)] @decorator) name: (identifier) @name)
  (record_declaration (modifiers [(marker_annotation) (annotation)] @decorator) name: (identifier) @name)
  (interface_declaration (modifiers [(marker_annotation) (annotation)] @decorator) name: (identifier) @name)
  (annotation_type_declaration (modifiers [(marker_annotation) (annotation)] @decorator) name: (identifier) @name)
  (enum_declaration (modifiers [(marker_annotation) (annotation)] @decorator) name: (identifier) @name)
  (method_declaration (modifiers [(marker_annotation) (annotation)] @decorator) name: (identifier) @name)
  (constructor_declaration (modifiers [(marker_annotation) (annotation)] @decorator) name: (identifier) @name)
]

; --- references -----------------------------------------------------------------------

; The whole invocation is the callee: `Optional.empty()` calls "Optional.empty" (text.callee).
(method_invocation) @name @reference.call

; A constructor's `super(..)` / `this(..)` runs the base's or another constructor of its
; class (parse._chains names it after that class).
(explicit_constructor_invocation
  constructor: (_) @name) @reference.call

; `new Repository<String>()` calls `Repository`, not its type argument.
(object_creation_expression
  type: [
    (type_identifier) @name
    (scoped_type_identifier) @name
    (generic_type [(type_identifier) (scoped_type_identifier)] @name)
  ]) @reference.call

; `this::find`, `String::valueOf`
(method_reference
  (identifier) @name .) @reference.call

(import_declaration
  [(identifier) (scoped_identifier)] @name) @reference.import

; --- constants: `static final` fields, an interface's fields, enum constants --------------
; (records.VALUE_KINDS: found by name, never searched themselves)
(field_declaration
  (modifiers) @_modifiers
  declarator: (variable_declarator name: (identifier) @name)
  (#match? @_modifiers "\\bstatic\\b")
  (#match? @_modifiers "\\bfinal\\b")) @definition.constant

(constant_declaration
  declarator: (variable_declarator name: (identifier) @name)) @definition.constant

; (one with a body is an anonymous class: named by the constant above)
(enum_constant name: (identifier) @name !body) @definition.constant
