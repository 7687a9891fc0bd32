; ES module imports and CommonJS requires for the import table (parse/imports.py):
; each `import ... from "m"` statement and each `x = require("m")` declarator, whole,
; each `export default ...` (it names the file's default export) and each re-export.
(import_statement) @import

(export_statement "default") @import

; `export {a, b as c} from "m"` and `export * as ns from "m"`: re-exports of another module's
; names, which a caller importing them from this module reaches.
(export_statement source: (string)) @import

; `export { Hono as HonoBase }`, `export { f as default }`: another name of the module's own
; definition (hono's `class Hono extends HonoBase` in another file)
(export_statement (export_clause) !source) @import

(variable_declarator
  value: (call_expression
    function: (identifier) @_require
    arguments: (arguments . (string)))
  (#eq? @_require "require")) @import
