; Swift definitions and calls for coderecalld.parse (captures: see queries/python/tags.scm).
; Qualified names are dotted and file-relative: Circle.area. An `extension Circle` is a class
; of the same name, so its members are Circle.unit too; `init` is a method named init.
; Protocols are traits. Attributes (@available) are @decorator; the range starts at the
; first. Doc comments (///, /** */) are the comment block above.

(class_declaration
  "class"
  name: (type_identifier) @name
  body: (_) @body) @definition.class

(class_declaration
  "actor"
  name: (type_identifier) @name
  body: (_) @body) @definition.class

(class_declaration
  "struct"
  name: (type_identifier) @name
  body: (_) @body) @definition.struct

(class_declaration
  "enum"
  name: (type_identifier) @name
  body: (_) @body) @definition.enum

(class_declaration
  "extension"
  name: (_) @name
  body: (_) @body) @definition.class

(protocol_declaration
  name: (type_identifier) @name
  body: (_) @body) @definition.trait

(function_declaration
  name: (simple_identifier) @name
  body: (_) @body) @definition.function

(function_declaration
  "async" @async
  name: (simple_identifier) @name)

(protocol_function_declaration
  name: (simple_identifier) @name) @definition.function

(init_declaration
  "init" @name
  body: (_) @body) @definition.function

(typealias_declaration
  name: (type_identifier) @name) @definition.type_alias

; A property with code is a method, as Python's @property is: a computed one
; (`var isReachable: Bool { ... }`) and one a closure builds (Alamofire's 50-line
; `static let defaultUserAgent: HTTPHeader = { ... }()`); a stored one is no symbol.
; `subscript` and `deinit` are methods of those names. A closure called where it stands
; (`{ ... }()`) calls no name (its last identifier was read as one).
(property_declaration
  name: (pattern bound_identifier: (simple_identifier) @name)
  computed_value: (computed_property) @body) @definition.function

(property_declaration
  name: (pattern bound_identifier: (simple_identifier) @name)
  value: (call_expression . (lambda_literal) @body)) @definition.function

(subscript_declaration
  "subscript" @name
  (computed_property) @body) @definition.function

(deinit_declaration
  "deinit" @name
  body: (_) @body) @definition.function

([(class_declaration (modifiers (attribute) @decorator) name: (_) @name)
  (function_declaration (modifiers (attribute) @decorator) name: (simple_identifier) @name)])

(call_expression
  . (_) @name
  (#not-match? @name "^[{]")) @reference.call

(import_declaration
  (identifier) @name) @reference.import
