; Kotlin definitions and calls for coderecalld.parse (captures: see queries/python/tags.scm).
; Qualified names are dotted and file-relative (the package is not a prefix):
; Circle.area; a companion object's members are its class's (Circle.unit) unless it is
; named. An extension `fun Shape.describe()` is named
; Shape.describe (@receiver). Annotations are @decorator; the range starts at the first.
; Doc comments (/** */, //) are the comment block above.

(class_declaration
  "interface"
  (type_identifier) @name
  (class_body)? @body) @definition.interface

((class_declaration
  "class"
  (type_identifier) @name
  (class_body)? @body) @definition.class
  (#not-match? @definition.class "^[^{]*\\benum\\s+class\\b"))

(class_declaration
  (type_identifier) @name
  (enum_class_body) @body) @definition.enum

(object_declaration
  (type_identifier) @name
  (class_body)? @body) @definition.class

(companion_object
  (type_identifier) @name
  (class_body) @body) @definition.class

; An anonymous object a property holds is named by the property, as Java's anonymous
; class held by a field is: moshi's `val BOOLEAN_JSON_ADAPTER: JsonAdapter<Boolean> =
; object : JsonAdapter<Boolean>() {...}` gives StandardJsonAdapters.BOOLEAN_JSON_ADAPTER.fromJson
; (eight methods had been StandardJsonAdapters.fromJson alike).
(property_declaration
  (variable_declaration (simple_identifier) @name)
  (object_literal (class_body) @body)) @definition.class

(function_declaration
  (simple_identifier) @name
  (function_body)? @body) @definition.function

; A property with code is a method, as Python's @property and Swift's computed property
; are: its getter or setter with a body (`val isEmpty get() = size == 0`). Written on the
; lines below it (ktfmt's style), the grammar makes them the property's siblings: the
; range runs on to the last (@tail). A bare `private set` is no code.
(property_declaration
  (variable_declaration (simple_identifier) @name)
  [(getter (function_body)) (setter (function_body))] @body) @definition.function

(_
  (property_declaration
    (variable_declaration (simple_identifier) @name)) @definition.function
  .
  [(getter (function_body)) (setter (function_body))] @body @tail)

(_
  (property_declaration
    (variable_declaration (simple_identifier) @name))
  .
  [(getter) (setter)]
  .
  [(getter) (setter)] @tail)

(property_declaration
  (receiver_type) @receiver
  (variable_declaration (simple_identifier) @name))

; `const val` is a constant, as Java's static final field is.
(property_declaration
  (modifiers (property_modifier) @_const)
  (variable_declaration (simple_identifier) @name)
  (#eq? @_const "const")) @definition.constant

(function_declaration
  (receiver_type) @receiver
  (simple_identifier) @name)

(function_declaration
  (modifiers (function_modifier "suspend") @async)
  (simple_identifier) @name)

(type_alias
  (type_identifier) @name) @definition.type_alias

([(class_declaration (modifiers (annotation) @decorator) (type_identifier) @name)
  (object_declaration (modifiers (annotation) @decorator) (type_identifier) @name)
  (function_declaration (modifiers (annotation) @decorator) (simple_identifier) @name)])

(call_expression
  [(simple_identifier) (navigation_expression)] @name) @reference.call

; `class D(x: Int) : Base(x)` constructs its base; a secondary constructor's `: super(..)`
; / `: this(..)` runs the base's or its class's (parse._chains names it after that class).
(delegation_specifier
  (constructor_invocation (user_type) @name) @reference.call)

(constructor_delegation_call
  ["this" "super"] @name) @reference.call

(import_header
  (identifier) @name) @reference.import
