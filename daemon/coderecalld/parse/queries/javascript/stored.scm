; Functions named after where they are stored, appended to the JavaScript, TypeScript and TSX
; queries (registry `extra_tags`; both grammars name these nodes alike):
;
; * `export default (config) => {...}`, `export default function () {}`, `export default class {}`
;   and `export default cond && (async (x) => {...})`: the file's anonymous default export;
; * `{ get: (k) => {...}, set(k, v) {...}, del: function () {...} }` bound by `const o = ...` or
;   `export default`: `o.get` (an object of no name, e.g. an argument, gives just `get`);
; * `A.from = (e) => {...}`, `Foo.prototype.bar = function () {...}`: `A.from`, `Foo.bar`;
;   `exports.x = ...`, `module.exports.x = ...`: `x`.
; * `Object.defineProperty(req, 'fresh', { get() {..} })`, `req.__defineGetter__('fresh', ..)`,
;   a helper's `defineGetter(req, 'fresh', function(){..})`: `req.fresh`.
;
; A `@name` or `@receiver` that is the `default` keyword stands for the file's anonymous
; default export: extract names it after the file (`imports.default_name`), as its import sites
; do (`import resolveConfig from "./resolveConfig.js"`). Named function expressions keep their
; own name (`{ f: function f() {} }` is one symbol `f`; the patterns below only give it a
; receiver and, when the key is the same name, the wider range).

; --- anonymous default exports ----------------------------------------------------------

(export_statement
  "default" @name
  value: [
    (arrow_function body: (_) @body)
    (function_expression !name body: (_) @body)
    (generator_function !name body: (_) @body)
    ; a feature-gated function: `export default isSupported && (async (config) => {...})`
    (binary_expression right: (parenthesized_expression [
      (arrow_function body: (_) @body)
      (function_expression !name body: (_) @body)
      (generator_function !name body: (_) @body)
    ]))
  ]) @definition.function

; a default export chosen when the module loads, a function either way: axios's
; `export default platform.hasStandardBrowserEnv ? ((origin) => (url) => {..})(..) : () => true`
; (isURLSameOrigin.js had no symbol, so its callers and search found nothing of it)
(export_statement
  "default" @name
  value: (ternary_expression
    consequence: [(arrow_function) (function_expression) (generator_function)
                  (call_expression function: (parenthesized_expression [(arrow_function) (function_expression)]))]
    alternative: [(arrow_function) (function_expression) (generator_function)
                  (call_expression function: (parenthesized_expression [(arrow_function) (function_expression)]))]) @body) @definition.function

(export_statement
  "default" @name
  value: (class !name body: (class_body) @body)) @definition.class

(export_statement
  "default" @name
  value: [
    (arrow_function "async" @async)
    (function_expression "async" @async)
    (generator_function "async" @async)
    (binary_expression right: (parenthesized_expression [
      (arrow_function "async" @async)
      (function_expression "async" @async)
    ]))
  ])

; --- test blocks: `test("title", t => {...})`, `it(...)`, `describe(...)` (AVA, Jest, Mocha,
; Vitest, node:test; `test.serial`, `it.only`, `describe.skip`): named by their title, so a
; test file is its tests, not one whole-module chunk (ky's 2,856-line `test/main.ts`).

(call_expression
  function: [
    (identifier) @_runner
    (member_expression object: (identifier) @_runner)
  ]
  arguments: (arguments
    .
    (string (string_fragment) @name)
    .
    [
      (arrow_function body: (_) @body)
      (function_expression body: (_) @body)
      (generator_function body: (_) @body)
    ])
  (#match? @_runner "^(test|it|describe|suite|context|specify)$")) @definition.function

; --- object-literal members -------------------------------------------------------------

(pair
  key: [(property_identifier) @name (string (string_fragment) @name)]
  value: [
    (arrow_function body: (_) @body)
    (function_expression !name body: (_) @body)
    (generator_function !name body: (_) @body)
  ]) @definition.function

(pair
  key: (property_identifier) @_key
  value: (function_expression name: (identifier) @name)
  (#eq? @name @_key)) @definition.function

(pair
  key: [(property_identifier) @name (string (string_fragment) @name)]
  value: [(arrow_function "async" @async) (function_expression !name "async" @async) (generator_function !name "async" @async)])

; the object's binding names its members (methods `m() {}` are method_definitions)
(variable_declarator
  name: (identifier) @receiver
  value: (object [
    (pair key: [(property_identifier) @name (string (string_fragment) @name)])
    (pair value: (function_expression name: (identifier) @name))
    (method_definition name: (_) @name)
  ]))

(export_statement
  "default" @receiver
  value: (object [
    (pair key: [(property_identifier) @name (string (string_fragment) @name)])
    (pair value: (function_expression name: (identifier) @name))
    (method_definition name: (_) @name)
  ]))

; --- property assignments ---------------------------------------------------------------

; `A.x = ...`, `exports.x = ...`; `module.x = ...` is left out (`module.exports = f` is no `exports`)
(expression_statement
  (assignment_expression
    left: (member_expression object: (identifier) @_object property: (property_identifier) @name)
    right: [
      (arrow_function body: (_) @body)
      (function_expression !name body: (_) @body)
      (generator_function !name body: (_) @body)
    ])
  (#not-eq? @_object "module")) @definition.function

; `this.use = (arg1, ...handlers) => {...}` in a constructor: a member of the object it
; builds (hono's `Hono.use` and `Hono.on`; a JS constructor function's `this.on = function`),
; named in its class by `parse._constructor_members`
(expression_statement
  (assignment_expression
    left: (member_expression object: (this) property: (property_identifier) @name)
    right: [
      (arrow_function body: (_) @body)
      (function_expression !name body: (_) @body)
      (generator_function !name body: (_) @body)
    ])) @definition.function

; `req.get = req.header = function header() {}`: a chain of assignments; each property
; names the function (both are what callers write): the outermost the statement, an inner
; one its own assignment (a named function expression is known by its property, `@alias`)
(expression_statement
  (assignment_expression
    left: (member_expression object: (identifier) @_object property: (property_identifier) @name)
    right: (assignment_expression
      right: [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)]))
  (#not-eq? @_object "module")) @definition.function

(assignment_expression
  left: (member_expression object: (identifier) @receiver property: (property_identifier) @name)
  right: (assignment_expression right: [(arrow_function) (function_expression) (generator_function)])
  (#not-match? @receiver "^(exports|module)$"))

(assignment_expression
  left: (member_expression property: (property_identifier) @name)
  right: (assignment_expression right: [(arrow_function "async" @async) (function_expression "async" @async) (generator_function "async" @async)]))

(assignment_expression
  right: (assignment_expression
    left: (member_expression object: (identifier) property: (property_identifier) @name)
    right: [(arrow_function body: (_) @body) (function_expression !name body: (_) @body) (generator_function !name body: (_) @body)]) @definition.function)

(assignment_expression
  right: (assignment_expression
    left: (member_expression object: (identifier) property: (property_identifier) @alias)
    right: (function_expression name: (identifier) @name)) @definition.function)

; `Foo.prototype.x = ...`, `module.exports.x = ...`
(expression_statement
  (assignment_expression
    left: (member_expression
      object: (member_expression object: (identifier) property: (property_identifier) @_via)
      property: (property_identifier) @name)
    right: [
      (arrow_function body: (_) @body)
      (function_expression !name body: (_) @body)
      (generator_function !name body: (_) @body)
    ])
  (#any-of? @_via "prototype" "exports")) @definition.function

; `A.from = function from() {}`: the statement is the range of the function's own symbol,
; named by the property it is assigned to (`@alias`), which is what its callers write: for
; `res.type = function contentType() {}`, `res.type(...)`; the function's own name is only
; its stack name
(expression_statement
  (assignment_expression
    left: (member_expression object: (identifier) @_object property: (property_identifier) @alias)
    right: (function_expression name: (identifier) @name))
  (#not-eq? @_object "module")) @definition.function

(expression_statement
  (assignment_expression
    left: (member_expression
      object: (member_expression object: (identifier) property: (property_identifier) @_via)
      property: (property_identifier) @alias)
    right: (function_expression name: (identifier) @name))
  (#any-of? @_via "prototype" "exports")) @definition.function

(assignment_expression
  left: (member_expression property: (property_identifier) @name)
  right: [(arrow_function "async" @async) (function_expression !name "async" @async) (generator_function !name "async" @async)])

; the owner: `A` in `A.x` and `A.prototype.x`, never `exports` or `module`
(assignment_expression
  left: (member_expression object: (identifier) @receiver property: (property_identifier) @name)
  right: [(arrow_function) (function_expression !name) (generator_function !name)]
  (#not-match? @receiver "^(exports|module)$"))

(assignment_expression
  left: (member_expression object: (identifier) @receiver property: (property_identifier))
  right: (function_expression name: (identifier) @name)
  (#not-match? @receiver "^(exports|module)$"))

(assignment_expression
  left: (member_expression
    object: (member_expression object: (identifier) @receiver property: (property_identifier) @_via)
    property: (property_identifier) @name)
  right: [(arrow_function) (function_expression !name) (generator_function !name)]
  (#eq? @_via "prototype"))

(assignment_expression
  left: (member_expression
    object: (member_expression object: (identifier) @receiver property: (property_identifier) @_via))
  right: (function_expression name: (identifier) @name)
  (#eq? @_via "prototype"))

; --- constants: a top-level `const` bound to a literal, a table or a computed value ------
; (records.VALUE_KINDS: found by name, never searched themselves). Not a function, class,
; `require(..)` or call result: those are definitions of their own or imports.
(program
  (lexical_declaration
    kind: "const"
    (variable_declarator
      name: (identifier) @name
      value: [(number) (string) (template_string) (true) (false) (null) (array) (object)
              (regex) (binary_expression) (unary_expression) (new_expression)])) @definition.constant)

(program
  (export_statement
    declaration: (lexical_declaration
      kind: "const"
      (variable_declarator
        name: (identifier) @name
        value: [(number) (string) (template_string) (true) (false) (null) (array) (object)
                (regex) (binary_expression) (unary_expression) (new_expression)]))) @definition.constant)

; --- a top-level const a call computes: `export const stop = Symbol('stop')`, an IIFE's
; value (`const supportsStreams = (() => {...})()`): ky's public `ky.stop` was no symbol. Not
; `require(..)` (an import), nor a call given a function (a factory, below), nor a call on a
; call's result.
(program
  (lexical_declaration
    kind: "const"
    (variable_declarator
      name: (identifier) @name
      value: (call_expression
        function: [(identifier) (member_expression object: (identifier)) (parenthesized_expression)] @_callee
        arguments: (arguments) @_args))) @definition.constant
  (#not-eq? @_callee "require")
  (#not-match? @_args "=>|\\bfunction\\b"))

(program
  (export_statement
    declaration: (lexical_declaration
      kind: "const"
      (variable_declarator
        name: (identifier) @name
        value: (call_expression
          function: [(identifier) (member_expression object: (identifier)) (parenthesized_expression)] @_callee
          arguments: (arguments) @_args)))) @definition.constant
  (#not-eq? @_callee "require")
  (#not-match? @_args "=>|\\bfunction\\b"))

; --- a top-level const a call makes from a function it is given (a factory) ---------------
; zod's `export const $ZodString = core.$constructor("$ZodString", (inst, def) => {...})`
; (240 such schemas: none was a symbol, 17% of core/schemas.ts inside one), a handler a
; middleware wraps (`export const handler = middy(async (event) => {...})`). The function
; given is its body; a call given none (`express.Router()`) stays no symbol, and a named
; function given is the symbol itself (`const Row = React.memo(function Row() {...})`).
; A value computed with a callback is none: an array's `.map(..)`, a promise's `.then(..)`,
; a server's `.listen(..)`, a timer (a review).
(program
  (lexical_declaration . (variable_declarator
      name: (identifier) @name
      value: (call_expression
        function: (_) @_callee
        arguments: (arguments [(arrow_function body: (_) @body) (function_expression !name body: (_) @body) (generator_function !name body: (_) @body)]))) .)
  @definition.function
  (#not-match? @_callee "[.](map|filter|reduce|reduceRight|forEach|flatMap|find|findIndex|findLast|some|every|sort|then|catch|finally|listen|on|once)$|^(setTimeout|setInterval|setImmediate|requestAnimationFrame|queueMicrotask)$"))

(program
  (export_statement
    declaration: (lexical_declaration . (variable_declarator
        name: (identifier) @name
        value: (call_expression
          function: (_) @_callee
          arguments: (arguments [(arrow_function body: (_) @body) (function_expression !name body: (_) @body) (generator_function !name body: (_) @body)]))) .))
  @definition.function
  (#not-match? @_callee "[.](map|filter|reduce|reduceRight|forEach|flatMap|find|findIndex|findLast|some|every|sort|then|catch|finally|listen|on|once)$|^(setTimeout|setInterval|setImmediate|requestAnimationFrame|queueMicrotask)$"))

; --- accessors and values defined on an object by name ----------------------------------
; `Object.defineProperty(req, 'fresh', { get() {..}, set(v) {..}, value: function () {..} })`,
; `Object.defineProperties(req, { fresh: { get: function () {..} } })`,
; `req.__defineGetter__('fresh', function () {..})` (`__defineSetter__`) and a helper of the
; file called with (object, identifier string, inline function), express's
; `defineGetter(req, 'fresh', function(){..})`: each function is `req.fresh`, a method of
; `req` as `req.accepts = function` is (`Foo.prototype` names `Foo`). express's getters had
; no symbol (`fresh`) or the function's own name (`protocol`), so an issue about `req.fresh`
; named no function. A named function expression (`function protocol(){..}`) is known by
; the property (`@alias`). Not `exports`/`module.exports`: compiled TypeScript re-exports
; every name so (`Object.defineProperty(exports, "x", { get: function () { return m.x; } })`),
; which would shadow the definitions. A `@helper` that no function of the file is named
; gives no name (`captures.local_helpers`): a test's `stub(obj, 'get', function () {..})`.

(call_expression
  function: (member_expression object: (identifier) @_object property: (property_identifier) @_define)
  arguments: (arguments
    .
    [(identifier) @receiver
     (member_expression object: (identifier) @receiver property: (property_identifier) @_via)]
    .
    (string (string_fragment) @alias)
    .
    (object [
      (method_definition name: (property_identifier) @_key @name)
      (pair key: (property_identifier) @_key @name
            value: [(arrow_function) (function_expression !name) (generator_function !name)])
      (pair key: (property_identifier) @_key value: (function_expression name: (identifier) @name))
    ]))
  (#eq? @_object "Object")
  (#eq? @_define "defineProperty")
  (#eq? @_via "prototype")
  (#not-match? @receiver "^(exports|module)$")
  (#any-of? @_key "get" "set" "value"))

(call_expression
  function: (member_expression object: (identifier) @_object property: (property_identifier) @_define)
  arguments: (arguments
    .
    [(identifier) @receiver
     (member_expression object: (identifier) @receiver property: (property_identifier) @_via)]
    .
    (object (pair
      key: [(property_identifier) @alias (string (string_fragment) @alias)]
      value: (object [
        (method_definition name: (property_identifier) @_key @name)
        (pair key: (property_identifier) @_key @name
              value: [(arrow_function) (function_expression !name) (generator_function !name)])
        (pair key: (property_identifier) @_key value: (function_expression name: (identifier) @name))
      ]))))
  (#eq? @_object "Object")
  (#eq? @_define "defineProperties")
  (#eq? @_via "prototype")
  (#not-match? @receiver "^(exports|module)$")
  (#any-of? @_key "get" "set" "value"))

; `req.__defineGetter__('fresh', function () {..})`: the statement is the range (the doc
; block above it documents the property); a named function keeps its own header
(expression_statement
  (call_expression
    function: (member_expression
      object: [(identifier) @receiver
               (member_expression object: (identifier) @receiver property: (property_identifier) @_via)]
      property: (property_identifier) @_define)
    arguments: (arguments
      .
      (string (string_fragment) @name)
      .
      [(arrow_function body: (_) @body) (function_expression !name body: (_) @body)]
      .))
  (#eq? @_via "prototype")
  (#not-match? @receiver "^(exports|module)$")
  (#any-of? @_define "__defineGetter__" "__defineSetter__")) @definition.function

(expression_statement
  (call_expression
    function: (member_expression
      object: [(identifier) @receiver
               (member_expression object: (identifier) @receiver property: (property_identifier) @_via)]
      property: (property_identifier) @_define)
    arguments: (arguments
      .
      (string (string_fragment) @alias)
      .
      (function_expression name: (identifier) @name)
      .))
  (#eq? @_via "prototype")
  (#not-match? @receiver "^(exports|module)$")
  (#any-of? @_define "__defineGetter__" "__defineSetter__")) @definition.function

; express's `defineGetter(req, 'fresh', function(){..})`
(expression_statement
  (call_expression
    function: (identifier) @helper
    arguments: (arguments
      .
      [(identifier) @receiver
       (member_expression object: (identifier) @receiver property: (property_identifier) @_via)]
      .
      (string (string_fragment) @name)
      .
      [(arrow_function body: (_) @body) (function_expression !name body: (_) @body)]
      .))
  (#eq? @_via "prototype")
  (#not-match? @receiver "^(exports|module)$")
  (#match? @name "^[A-Za-z_$][A-Za-z0-9_$]*$")) @definition.function

(expression_statement
  (call_expression
    function: (identifier) @helper
    arguments: (arguments
      .
      [(identifier) @receiver
       (member_expression object: (identifier) @receiver property: (property_identifier) @_via)]
      .
      (string (string_fragment) @alias)
      .
      (function_expression name: (identifier) @name)
      .))
  (#eq? @_via "prototype")
  (#not-match? @receiver "^(exports|module)$")
  (#match? @alias "^[A-Za-z_$][A-Za-z0-9_$]*$")) @definition.function
