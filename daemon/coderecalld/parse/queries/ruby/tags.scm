; Ruby definitions and calls for coderecalld.parse (captures: see queries/python/tags.scm).
; Qualified names are dotted: Geometry.Circle.area; `def self.unit` is Geometry.Circle.unit
; too, and so is a `def` in a `class << self` block (no symbol of its own: it named
; Sinatra's DSL `Sinatra.Base.self.get`); `class A::B` is A.B. A `def` in a class is a method; in a module or at top level, a function. Every
; method call is a call (`a.b`, `puts x`); its callee is the method name. Doc comments are
; the `#` block above.

(module
  name: [(constant) (scope_resolution)] @name) @definition.module

(module
  name: (_) @name
  body: (body_statement) @body)

(class
  name: [(constant) (scope_resolution)] @name) @definition.class

(class
  name: (_) @name
  body: (body_statement) @body)

(method
  name: (_) @name) @definition.function

(method
  name: (_) @name
  body: (_) @body)

(singleton_method
  name: (_) @name) @definition.function

(singleton_method
  name: (_) @name
  body: (_) @body)

(call
  method: (_) @name) @reference.call

; A bare name in an expression's place calls a method on self unless it is a local of its
; scope, as Ruby decides (parse/ruby_calls.py drops locals, parameters, a call's method name,
; a definition's name): rack's ``tok = consume_boundary``, ``case consume_boundary`` and
; ``"#{host_with_port}"`` were no call when only a bare name standing as a statement was
; (sinatra's ``forward``, ``halt unless ok?``). A bare ``super`` calls the base's same
; method with the same arguments (parse._chains names it after the base in ``initialize``).
(identifier) @name @reference.call
[
  (body_statement (super) @name @reference.call)
  (block_body (super) @name @reference.call)
  (then (super) @name @reference.call)
  (else (super) @name @reference.call)
  (begin (super) @name @reference.call)
  (if_modifier body: (super) @name @reference.call)
  (unless_modifier body: (super) @name @reference.call)
  (assignment right: (super) @name @reference.call)
]

(call
  method: (identifier) @_require
  arguments: (argument_list . (string (string_content) @name))
  (#any-of? @_require "require" "require_relative")) @reference.import

; --- constants: `NAME = value` in a module, class or file (records.VALUE_KINDS) -----------
(assignment left: (constant) @name) @definition.constant
