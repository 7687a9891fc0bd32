; Python definitions, calls and imports for coderecalld.parse.
;
; Capture convention (see parse/registry.py):
;   @definition.<kind>  the definition's extent; when several patterns capture the same
;                       @name node, the widest extent wins (so decorators are included)
;   @name               the defined identifier; in @reference.* patterns, the referenced
;                       expression (callee, module name)
;   @body               the body: calls inside it belong to this definition, the
;                       signature ends where it starts
;   @decorator          one decorator, kept as written
;   @async              present when the definition is async
;   @doc                the docstring literal of a definition; @doc.module of the file
;   @tail               a node after the definition's extent that still belongs to it:
;                       the range and the calls it owns run on to its end (Kotlin)
; A function whose nearest enclosing definition is a class is reported as a method.

(function_definition
  name: (identifier) @name
  body: (block) @body) @definition.function

(function_definition
  "async" @async
  name: (identifier) @name)

(class_definition
  name: (identifier) @name
  body: (block) @body) @definition.class

(decorated_definition
  (decorator)+ @decorator
  definition: (function_definition name: (identifier) @name)) @definition.function

(decorated_definition
  (decorator)+ @decorator
  definition: (class_definition name: (identifier) @name)) @definition.class

; PEP 695 `type X = ...` / `type X[T] = ...` (Python 3.12). Only a plain or generic name on
; the left: tree-sitter-python also parses `type(obj).attr = v` as a type_alias_statement
; (tree-sitter-python#321), whose left side is an attribute and names nothing.
(type_alias_statement
  left: (type [
    (identifier) @name
    (generic_type . (identifier) @name)
  ])) @definition.type_alias

; A docstring is a string literal that is the first statement; comments may precede it.
(function_definition
  name: (identifier) @name
  body: (block . (comment)* . (string) @doc))

(class_definition
  name: (identifier) @name
  body: (block . (comment)* . (string) @doc))

(module . (comment)* . (string) @doc.module)

(call
  function: (_) @name) @reference.call

; `raise C` and `raise C from e` raise an instance Python makes by calling the class: a
; construction of it (a capitalised name or attribute; a lowercase one, `raise exc`, names
; an instance already made).
(raise_statement . [(identifier) (attribute)] @name
  (#match? @name "(^|\\.)_*[A-Z][A-Za-z0-9_]*$")) @reference.call

; A decorator written without arguments (`@cached_property`, `@Request.application`) calls
; it with the function, as one with arguments (`@app.route("/")`) calls what that returns:
; a call of the enclosing scope, which evaluates it (werkzeug's 38 `@cached_property` uses
; were no callers of it).
(decorator [(identifier) (attribute)] @name) @reference.call

; A name written as a value, not called: passed (`Thread(target=self.run)`, `signal(SIG,
; handler)`), assigned (`self.dispatch_func = self.dispatch`), returned or listed (a dispatch
; table). index/resolve keeps one only when it names a function, method or class: a
; reference, which `callers` lists as one (starlette's `BaseHTTPMiddleware.dispatch` had no
; callers). A type test's or a cast's class (`isinstance(x, C)`, `t.cast(C, v)`) and
; `super(C, self)` are none.
(call function: (_) @_called
  arguments: (argument_list [(identifier) (attribute)] @name @reference.value)
  (#not-match? @_called "^(super|isinstance|issubclass|type|(typing\\.|t\\.)?cast)$"))
; a cast's value is one, its type is none (click's `t.cast("type[CmdType]", Command)`: the
; class `@command` builds by default)
(call function: (_) @_called
  arguments: (argument_list . (_) . [(identifier) (attribute)] @name @reference.value)
  (#match? @_called "^(typing\\.|t\\.)?cast$"))
; a TypeVar's bound is a type (`TypeVar("C", bound=Command)`)
(call function: (_) @_called
  arguments: (argument_list (keyword_argument value: [(identifier) (attribute)] @name @reference.value))
  (#not-match? @_called "^((typing\\.|t\\.)?TypeVar|(typing\\.|t\\.)?NewType)$"))
(assignment right: [(identifier) (attribute)] @name @reference.value)
(return_statement [(identifier) (attribute)] @name @reference.value)
(list [(identifier) (attribute)] @name @reference.value)
(tuple [(identifier) (attribute)] @name @reference.value)
(set [(identifier) (attribute)] @name @reference.value)
(expression_list [(identifier) (attribute)] @name @reference.value)
(conditional_expression [(identifier) (attribute)] @name @reference.value)
(boolean_operator [(identifier) (attribute)] @name @reference.value)
(pair value: [(identifier) (attribute)] @name @reference.value)

(import_statement
  name: [
    (dotted_name) @name
    (aliased_import name: (dotted_name) @name)
  ]) @reference.import

(import_from_statement
  module_name: (_) @name) @reference.import

(future_import_statement
  "__future__" @name) @reference.import

; --- constants: an UPPER_CASE name assigned at a module's or a class's top level ----------
; (records.VALUE_KINDS: symbols for lookups, never searched themselves; two characters at
; least, so a `T = TypeVar("T")` is none)
(module
  (assignment left: (identifier) @name) @definition.constant
  (#match? @name "^_*[A-Z][A-Z0-9_]*[A-Z0-9]$"))

(class_definition
  body: (block (assignment left: (identifier) @name) @definition.constant)
  (#match? @name "^_*[A-Z][A-Z0-9_]*[A-Z0-9]$"))

; ... and in a module-level `try`/`except`/`else` or `if`/`elif`/`else` block, where a module
; picks its value by what is installed or which Python runs (typer's `DEFAULT_MARKUP_MODE`,
; set in `try:` and again in `except ImportError:`, was no symbol; a newcomer)
(module
  (try_statement body: (block (assignment left: (identifier) @name) @definition.constant))
  (#match? @name "^_*[A-Z][A-Z0-9_]*[A-Z0-9]$"))

(module
  (try_statement [(except_clause (block (assignment left: (identifier) @name) @definition.constant))
                  (else_clause body: (block (assignment left: (identifier) @name) @definition.constant))])
  (#match? @name "^_*[A-Z][A-Z0-9_]*[A-Z0-9]$"))

(module
  (if_statement consequence: (block (assignment left: (identifier) @name) @definition.constant))
  (#match? @name "^_*[A-Z][A-Z0-9_]*[A-Z0-9]$"))

(module
  (if_statement alternative: [(else_clause body: (block (assignment left: (identifier) @name) @definition.constant))
                              (elif_clause consequence: (block (assignment left: (identifier) @name) @definition.constant))])
  (#match? @name "^_*[A-Z][A-Z0-9_]*[A-Z0-9]$"))

; --- a method a class body binds by assignment: a lowercase name assigned another name or
; attribute whose last part is lowercase, as a function's is (requests-cache's `get =
; _cached_get`, `__call__ = run`, `post = Base.get`): a variable for lookups, so the class
; defines the name itself (`Sub.get` was pinned as the base's `get` it overrides; a review).
; A class's own `queryset = Model.objects` is one too: it overrides the base's as well.
(class_definition
  body: (block (assignment left: (identifier) @name right: (identifier) @_value) @definition.variable)
  (#match? @name "^_*[a-z][A-Za-z0-9_]*$")
  (#match? @_value "^_*[a-z][A-Za-z0-9_]*$"))

(class_definition
  body: (block (assignment left: (identifier) @name right: (attribute attribute: (identifier) @_value)) @definition.variable)
  (#match? @name "^_*[a-z][A-Za-z0-9_]*$")
  (#match? @_value "^_*[a-z][A-Za-z0-9_]*$"))

; --- an alias: a capitalised name a module binds to another name (`Str = String`,
; `BaseSchema = Schema`, `Deep = pkg.sub.Thing`) or to a subscripted type (a type alias:
; typer's `MarkupMode = Literal["markdown", "rich", None]`): a variable for lookups (marshmallow's
; field aliases were no symbols: `symbols Str` found nothing; a newcomer). Not an
; UPPER_CASE name (a constant, above) nor a lowercase one (a module's working variable).
(module
  (assignment left: (identifier) @name right: [(identifier) (attribute) (subscript)]) @definition.variable
  (#match? @name "^_*[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*$"))
