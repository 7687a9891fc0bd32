"""What newcomers saw go wrong on Kotlin (moshi), Swift (Alamofire) and C++ (fmt), end to
end: a real git fixture, the real embedded store, ``symbols`` and ``card``.

- A Kotlin class whose primary constructor has a line of its own was a one-line class;
  ``card EnumJsonAdapter`` showed lines 38-38 and no methods.
- A Swift type with ``#if`` among its members was cut the same way (``Protected``), and
  ``card HTTPHeaders`` described ``extension HTTPHeaders: Collection``, not the struct.
- fmt's headers were read as C, with thousands of syntax errors.
"""

from __future__ import annotations

from pathlib import Path

from conformance_cases import indexed, symbols

ENUM_ADAPTER_KT = '''\
package com.squareup.moshi.adapters

public class EnumJsonAdapter<T : Enum<T>>
internal constructor(
  private val enumType: Class<T>,
  private val fallbackValue: T?,
) : JsonAdapter<T?>() {
  /** Create a new adapter for this enum with a fallback value. */
  public fun withUnknownFallback(fallbackValue: T?): EnumJsonAdapter<T> {
    return EnumJsonAdapter(enumType, fallbackValue)
  }

  override fun toString(): String = "EnumJsonAdapter(${enumType.name})"

  public companion object {
    @JvmStatic
    public fun <T : Enum<T>> create(enumType: Class<T>): EnumJsonAdapter<T> {
      return EnumJsonAdapter(enumType, null)
    }
  }
}
'''

HTTP_HEADERS_SWIFT = '''\
/// An order-preserving and case-insensitive representation of HTTP headers.
public struct HTTPHeaders: Equatable, Hashable, Sendable {
    private var headers: [HTTPHeader] = []

    /// Creates an empty instance.
    public init() {}

    /// Case-insensitively updates or appends the provided `HTTPHeader`.
    public mutating func update(_ header: HTTPHeader) {
        headers.append(header)
    }
}

extension HTTPHeaders: Collection {
    public var startIndex: Int {
        headers.startIndex
    }

    public func index(after i: Int) -> Int {
        headers.index(after: i)
    }
}
'''

HEADERS_TESTS_SWIFT = '''\
extension HTTPHeaders {
    static let fixture = HTTPHeaders()
}
'''

BUFFER_H = '''\
#ifndef FMT_BUFFER_H_
#define FMT_BUFFER_H_

FMT_BEGIN_NAMESPACE

/// A contiguous memory buffer with an optional growing ability.
template <typename T> class buffer {
 private:
  T* ptr_;
  size_t size_;

 public:
  FMT_CONSTEXPR void push_back(const T& value) {
    ptr_[size_++] = value;
  }
  FMT_CONSTEXPR auto size() const noexcept -> size_t { return size_; }
};

FMT_END_NAMESPACE
#endif  // FMT_BUFFER_H_
'''


def test_kotlin_swift_and_cpp_definitions_keep_their_members(tmp_path: Path) -> None:
    files = {"moshi-adapters/src/main/java/com/squareup/moshi/adapters/EnumJsonAdapter.kt": ENUM_ADAPTER_KT,
             "Source/Core/HTTPHeaders.swift": HTTP_HEADERS_SWIFT,
             "Tests/HTTPHeadersTests.swift": HEADERS_TESTS_SWIFT,
             "include/fmt/buffer.h": BUFFER_H}
    with indexed(tmp_path, files) as d:
        card = d.service.get_card("EnumJsonAdapter", repo="fx")
        assert (card.kind, card.start_line, card.end_line) == ("class", 3, 21)
        assert [m.split("(")[0] for m in card.methods] == [
            "public fun withUnknownFallback", "override fun toString", "public fun <T : Enum<T>> create"]
        assert symbols(d, "fx", "EnumJsonAdapter.withUnknownFallback") == [
            ("moshi-adapters/src/main/java/com/squareup/moshi/adapters/EnumJsonAdapter.kt",
             "EnumJsonAdapter.withUnknownFallback", "method", 9, 11)]

        # the struct, not an extension of it; listed first, then its extensions, source first
        card = d.service.get_card("HTTPHeaders", repo="fx")
        assert (card.path, card.kind, card.start_line, card.end_line) == (
            "Source/Core/HTTPHeaders.swift", "struct", 2, 12)
        assert card.others == ("fx:Tests/HTTPHeadersTests.swift:1 HTTPHeaders",)  # same-file parts: one
        assert symbols(d, "fx", "HTTPHeaders") == [
            ("Source/Core/HTTPHeaders.swift", "HTTPHeaders", "struct", 2, 12),
            ("Source/Core/HTTPHeaders.swift", "HTTPHeaders", "class", 14, 22),
            ("Tests/HTTPHeadersTests.swift", "HTTPHeaders", "class", 1, 3)]

        # a C++ header: its class and methods, named without the macro namespace
        assert symbols(d, "fx", "buffer") == [("include/fmt/buffer.h", "buffer", "class", 7, 17)]
        assert symbols(d, "fx", "buffer::push_back") == [
            ("include/fmt/buffer.h", "buffer::push_back", "method", 13, 15)]
        card = d.service.get_card("buffer", repo="fx")
        assert card.summary == "A contiguous memory buffer with an optional growing ability."
        # as code writes it, through the namespace the macro opened
        assert [(h.qualified_name, h.start_line) for h in d.service.find_symbols("fmt::buffer::push_back")] == [
            ("buffer::push_back", 13)]
        assert [(h.qualified_name, h.match) for h in d.service.find_symbols("fmt::buffer")] == [
            ("buffer", "scoped")]
        # a scope its path does not hold is another library's: std::buffer is none of fmt's
        assert d.service.find_symbols("std::buffer") == []
        # a class's scope is never dropped: another class's member is no answer
        assert d.service.find_symbols("Writer::push_back") == []
        assert d.service.find_symbols("fmt::Writer::push_back") == []


MOSHI_KT = '''\
package com.squareup.moshi

public class Moshi internal constructor(builder: Builder) {
  public fun adapter(type: Type): JsonAdapter<Any> = TODO()
}
'''

UTIL_KT = '''\
package com.squareup.moshi.internal

import com.squareup.moshi.Moshi

/** Loads the generated JsonAdapter for classes annotated JsonClass. */
public fun Moshi.generatedAdapter(type: Type, rawType: Class<*>): JsonAdapter<*>? {
  return null
}
'''

FACTORY_KT = '''\
package com.squareup.moshi.kotlin.reflect

import com.squareup.moshi.Moshi
import com.squareup.moshi.internal.generatedAdapter

public class KotlinJsonAdapterFactory : JsonAdapter.Factory {
  override fun create(type: Type, annotations: Set<Annotation>, moshi: Moshi): JsonAdapter<*>? {
    val generatedAdapter = moshi.generatedAdapter(type, type.rawType)
    return generatedAdapter
  }
}
'''

OTHER_KT = '''\
package com.example

class Registry {
  fun generatedAdapter(type: Type, rawType: Class<*>): Any? = null
}

class Use(private val registry: Registry) {
  fun run(type: Type) = registry.generatedAdapter(type, type.javaClass)
}
'''


def test_kotlin_extension_function_callers_are_found(tmp_path: Path) -> None:
    """moshi's ``Moshi.generatedAdapter`` (package ``internal``) is called on a ``Moshi``
    (package ``com.squareup.moshi``): its callers were left out as calls on another type,
    and ``callers`` said nothing calls it."""
    files = {"moshi/src/main/java/com/squareup/moshi/Moshi.kt": MOSHI_KT,
             "moshi/src/main/java/com/squareup/moshi/internal/Util.kt": UTIL_KT,
             "moshi-kotlin/src/main/java/com/squareup/moshi/kotlin/reflect/KotlinJsonAdapterFactory.kt": FACTORY_KT,
             "other/src/main/kotlin/com/example/Registry.kt": OTHER_KT}
    with indexed(tmp_path, files) as d:
        omitted: dict[str, int] = {}
        page = d.service.find_callers("Moshi.generatedAdapter", repo="fx", omitted=omitted)
        assert [(c.path, c.line, c.caller, c.target, c.confidence) for c in page] == [
            ("moshi-kotlin/src/main/java/com/squareup/moshi/kotlin/reflect/KotlinJsonAdapterFactory.kt", 8,
             "KotlinJsonAdapterFactory.create", "com.squareup.moshi.Moshi.generatedAdapter", "resolved")]
        # Registry's method of the same name, on a Registry, is no call of the extension
        assert omitted == {"other_type": 1}


READER_KT = '''\
package com.squareup.moshi

internal class `-JsonUtf8Reader` : JsonReader {
  override fun beginArray() {
    push(JsonScope.EMPTY_ARRAY)
  }

  override fun beginObject() {
    val p = peeked
    if (p != PEEKED_BEGIN_OBJECT) {
      throw JsonDataException("Expected BEGIN_OBJECT but was ${peek()} at path ${getPath()}")
    }
    push(JsonScope.EMPTY_OBJECT)
  }
}
'''

MAP_ADAPTER_KT = '''\
package com.squareup.moshi

internal class MapJsonAdapter<K, V>(moshi: Moshi) : JsonAdapter<Map<K, V?>>() {
  override fun fromJson(reader: JsonReader): Map<K, V?> {
    val result = LinkedHashTreeMap<K, V?>()
    reader.beginObject()
    while (reader.hasNext()) {
      reader.promoteNameToValue()
    }
    reader.endObject()
    return result
  }
}
'''

TRACE = """\
com.squareup.moshi.JsonDataException: Expected BEGIN_OBJECT but was STRING at path $.user
\tat com.squareup.moshi.-JsonUtf8Reader.beginObject(-JsonUtf8Reader.kt:9)
\tat com.squareup.moshi.MapJsonAdapter.fromJson(MapJsonAdapter.kt:6)
\tat com.example.app.ProfileRepository.load(ProfileRepository.kt:33)
"""


def test_a_trace_through_a_quoted_kotlin_class_locates_it(tmp_path: Path) -> None:
    """moshi's reader class is `-JsonUtf8Reader`: the trace's innermost frame was skipped,
    and ``symbols`` found the class only written with its backticks."""
    files = {"moshi/src/main/java/com/squareup/moshi/-JsonUtf8Reader.kt": READER_KT,
             "moshi/src/main/java/com/squareup/moshi/MapJsonAdapter.kt": MAP_ADAPTER_KT}
    with indexed(tmp_path, files) as d:
        assert symbols(d, "fx", "-JsonUtf8Reader.beginObject") == [
            ("moshi/src/main/java/com/squareup/moshi/-JsonUtf8Reader.kt", "-JsonUtf8Reader.beginObject",
             "method", 8, 14)]
        located = d.service.locate(TRACE, repo="fx")
        assert located.shape == "trace"
        first = located.files[0]
        assert (first.path, first.functions[0].qualified_name) == (
            "moshi/src/main/java/com/squareup/moshi/-JsonUtf8Reader.kt", "-JsonUtf8Reader.beginObject")


SCHEMAS_TS = '''\
import * as core from "./core.js";
import * as util from "./util.js";

export interface $ZodObjectDef extends $ZodTypeDef {
  type: "object";
  shape: Record<string, $ZodType>;
}

export interface $ZodObject extends $ZodType {
  _zod: $ZodObjectInternals;
}

export const $ZodObject: core.$constructor<$ZodObject> = /*@__PURE__*/ core.$constructor("$ZodObject", (inst, def) => {
  $ZodType.init(inst, def);
  const keys = Object.keys(def.shape);
  inst._zod.parse = (payload, ctx) => {
    for (const key of keys) {
      const result = def.shape[key]._zod.run({ value: payload.value[key], issues: [] }, ctx);
      if (result.issues.length) payload.issues.push(util.finalizeIssue(result.issues[0], ctx));
    }
    return payload;
  };
});
'''

CORE_TS = '''\
export /*@__PURE__*/ function $constructor<T extends ZodTrait, D = T["_zod"]["def"]>(
  name: string,
  initializer: (inst: T, def: D) => void,
): $constructor<T, D> {
  function init(inst: T, def: D) {
    initializer(inst, def);
  }
  return init as any;
}

export class $ZodAsyncError extends Error {
  constructor() {
    super(`Encountered Promise during synchronous parse. Use .parseAsync() instead.`);
  }
}
'''

UTIL_TS = '''\
export function finalizeIssue(iss: $ZodRawIssue, ctx: ParseContext | undefined): $ZodIssue {
  return { ...iss, message: iss.message ?? "Invalid input" };
}
'''

V3_TYPES_TS = '''\
export class ZodObject<T extends ZodRawShape> extends ZodType<T> {
  _parse(input: ParseInput): ParseReturnType<this["_output"]> {
    const { status, ctx } = this._processInputParams(input);
    return this._parseObject(ctx, status);
  }

  extend<Augmentation extends ZodRawShape>(augmentation: Augmentation) {
    return new ZodObject({ ...this._def, shape: () => ({ ...this._def.shape(), ...augmentation }) });
  }
}
'''


def test_a_zod_schema_made_by_a_factory_is_a_symbol_and_found_by_its_name(tmp_path: Path) -> None:
    """zod's ~240 schemas are ``export const $ZodX = core.$constructor("$ZodX", (inst, def) =>
    {...})``: none was a symbol, ``symbols $ZodObject`` answered the 5-line interface, a
    call of ``core.$constructor`` had no name, and ``search $ZodObject`` answered v3's
    ``ZodObject``."""
    files = {"packages/zod/src/v4/core/schemas.ts": SCHEMAS_TS,
             "packages/zod/src/v4/core/core.ts": CORE_TS,
             "packages/zod/src/v4/core/util.ts": UTIL_TS,
             "packages/zod/src/v3/types.ts": V3_TYPES_TS}
    with indexed(tmp_path, files) as d:
        assert symbols(d, "fx", "$ZodObject") == [  # one file's: a function before a type, as card picks
            ("packages/zod/src/v4/core/schemas.ts", "$ZodObject", "function", 13, 23),
            ("packages/zod/src/v4/core/schemas.ts", "$ZodObject", "interface", 9, 11)]
        card = d.service.get_card("$ZodObject", repo="fx")
        assert (card.kind, card.start_line, card.end_line) == ("function", 13, 23)
        callers = d.service.find_callers("finalizeIssue", repo="fx")
        assert [(c.line, c.caller) for c in callers] == [(19, "$ZodObject")]
        hits = d.service.search("$ZodObject", repo="fx", limit=3)
        assert hits[0].qualified_name == "$ZodObject" and hits[0].path.endswith("v4/core/schemas.ts")
        # a name with "$" is an identifier: pinned as written, not every `constructor`
        assert [(h.path, h.qualified_name) for h in d.service.search("$constructor", repo="fx", limit=2)][0] == (
            "packages/zod/src/v4/core/core.ts", "$constructor")
        # as the code writes it, through its import alias (match "scoped")
        assert [(h.path, h.qualified_name, h.match) for h in d.service.find_symbols("util.finalizeIssue")] == [
            ("packages/zod/src/v4/core/util.ts", "finalizeIssue", "scoped")]
        assert d.service.find_symbols("ZodType.finalizeIssue") == []


PARSE_TS = '''\
export function _parseAll(schemas, values) {
  const fn = (schema, value) => {
    const result = schema._zod.run({ value, issues: [] });
    return result.issues.length ? fn(schema, result.value) : result.value;
  };
  return schemas.map((schema, i) => fn(schema, values[i]));
}
'''

DOC_TS = '''\
export class Doc {
  indented(fn: (doc: Doc) => void) {
    this.indent += 1;
    fn(this);
    this.indent -= 1;
  }
}
'''

USE_AUTH_JS = '''\
export function useAuth() {
  const login = async (name) => {
    await api.post("/login", { name });
  };
  return { user, login };
}
'''

LOGIN_BUTTON_JSX = '''\
import { useAuth } from "./useAuth";

export function LoginButton({ name }) {
  const { login } = useAuth();
  const onClick = () => login(name);
  return <button onClick={onClick}>Log in</button>;
}
'''

CLOSURES_PY = """\
def make_logger(prefix):
    def log(msg):
        print(prefix, msg)
    return log


log = make_logger("app")


def main():
    log("started")
"""


def test_a_nested_function_is_called_by_its_name_only_inside_its_parent(tmp_path: Path) -> None:
    """A helper nested in a function and named nowhere else in it is called bare only
    there: ``Doc.indented``'s ``fn(this)`` (its parameter) is no call of it. A nested
    function its parent returns, alone or in an object, may be called by that very name
    elsewhere (a React hook's ``const {login} = useAuth()``, a logger factory): those calls
    stay (a review)."""
    files = {"packages/zod/src/v4/core/parse.ts": PARSE_TS, "packages/zod/src/v4/core/doc.ts": DOC_TS,
             "src/useAuth.js": USE_AUTH_JS, "src/LoginButton.jsx": LOGIN_BUTTON_JSX, "pkg/logging_.py": CLOSURES_PY}
    with indexed(tmp_path, files) as d:
        omitted: dict[str, int] = {}
        callers = d.service.find_callers("_parseAll.fn", repo="fx", omitted=omitted)
        assert sorted((c.path, c.line, c.caller) for c in callers) == [
            ("packages/zod/src/v4/core/parse.ts", 4, "_parseAll.fn"),
            ("packages/zod/src/v4/core/parse.ts", 6, "_parseAll")]
        assert omitted == {"other_type": 1}  # Doc.indented's parameter
        callers = d.service.find_callers("useAuth.login", repo="fx")
        assert [(c.path, c.line, c.caller) for c in callers] == [("src/LoginButton.jsx", 5, "LoginButton.onClick")]
        callers = d.service.find_callers("make_logger.log", repo="fx")
        # its factory's `return log` is a reference of it (it escapes there), then the call
        assert [(c.path, c.line, c.caller, c.confidence) for c in callers] == [
            ("pkg/logging_.py", 4, "make_logger", "reference"), ("pkg/logging_.py", 11, "main", "name_only")]


ZOD_TYPES_TS = '''\
export abstract class ZodType<Output = any, Def extends ZodTypeDef = ZodTypeDef, Input = Output> {
  _processInputParams(input: ParseInput): { status: ParseStatus; ctx: ParseContext } {
    return { status: new ParseStatus(), ctx: this._getOrReturnCtx(input) };
  }
}

export class ZodString extends ZodType<string, ZodStringDef, string> {
  _parse(input: ParseInput): ParseReturnType<string> {
    const { status, ctx } = this._processInputParams(input);
    return status;
  }
}
'''

ZOD_OBJECT_TS = '''\
import { ZodType } from "./types";

export class ZodObject<T extends ZodRawShape> extends ZodType<objectOutputType<T>, ZodObjectDef<T>> {
  _parse(input: ParseInput) {
    const { status, ctx } = this._processInputParams(input);
    return status;
  }
}
'''


def test_a_ts_subclass_calling_its_generic_base_s_method_is_resolved(tmp_path: Path) -> None:
    """``callers ZodType._processInputParams --resolved`` said none: a class extending a
    generic base (``extends ZodType<string, ...>``) had no base for ``this.m()``."""
    with indexed(tmp_path, {"src/types.ts": ZOD_TYPES_TS, "src/object.ts": ZOD_OBJECT_TS}) as d:
        callers = d.service.find_callers("ZodType._processInputParams", repo="fx")
        assert sorted((c.path, c.line, c.caller, c.confidence) for c in callers) == [
            ("src/object.ts", 5, "ZodObject._parse", "resolved"),
            ("src/types.ts", 9, "ZodString._parse", "resolved")]


BOX_KT = '''\
package com.acme

class Box<T>(val value: T?)
'''

BOX_EXT_KT = '''\
package com.acme.ext

import com.acme.Box

fun <T> Box<T>.unwrap(): T = value!!

fun <T> Box<T>?.orEmpty(): Box<T> = this ?: Box(null)
'''

BOX_USE_KT = '''\
package com.acme.app

import com.acme.Box
import com.acme.ext.unwrap

class Reader {
  fun read(box: Box<String>): String = box.unwrap()
}
'''


def test_callers_of_a_kotlin_extension_on_a_generic_receiver(tmp_path: Path) -> None:
    """An extension on a generic receiver (``fun <T> Box<T>.unwrap()``) is named with its
    type arguments, which no call target writes: its resolved caller was left out."""
    files = {"src/main/kotlin/com/acme/Box.kt": BOX_KT, "src/main/kotlin/com/acme/ext/BoxExt.kt": BOX_EXT_KT,
             "src/main/kotlin/com/acme/app/Reader.kt": BOX_USE_KT}
    with indexed(tmp_path, files) as d:
        unwrap = [(h.qualified_name, h.kind) for h in d.service.find_symbols("unwrap", repo="fx")]
        callers = d.service.find_callers("unwrap", repo="fx")
        assert (unwrap, [(c.path, c.line, c.caller, c.confidence) for c in callers]) == (
            [("Box<T>.unwrap", "method")],
            [("src/main/kotlin/com/acme/app/Reader.kt", 7, "Reader.read", "resolved")])


CHANNEL_SCALA = '''\
package ox.channels

/** A channel: a source and a sink. */
class Channel[T] private (capacity: Int) extends Source[T] with Sink[T]:
  override def toString: String = s"Channel($capacity)"

object Channel:
  def rendezvous[T]: Channel[T] = new Channel(0)
  given default: BufferCapacity = 16
end Channel

private[channels] enum ChannelState:
  case Open, Done

case class RetryConfig[E, T](schedule: Schedule, attempts: Int = 3):
  def next: Int = attempts - 1

  /** How a retry waits: the doc of the next member. */
  def sleep(): Unit = Thread.sleep(10)
'''


def test_scala_class_before_its_companion_object_and_its_primary_parameters(tmp_path: Path) -> None:
    """ox (a newcomer): ``card Channel`` described ``object Channel``, not the class, and a
    case class's card listed no constructor parameters; the ``given`` of the object, the
    enum's cases and the enum itself (after a ``private[x]`` modifier) were no symbols."""
    with indexed(tmp_path, {"core/src/main/scala/ox/channels/Channel.scala": CHANNEL_SCALA}) as d:
        card = d.service.get_card("Channel", repo="fx")
        assert (card.kind, card.start_line, card.end_line, card.signature) == (
            "class", 4, 5, "class Channel[T] private (capacity: Int) extends Source[T] with Sink[T]")
        assert card.init_params == ("capacity: Int",)
        assert card.summary == "A channel: a source and a sink."
        card = d.service.get_card("RetryConfig", repo="fx")
        assert (card.start_line, card.end_line, card.init_params) == (
            15, 19, ("schedule: Schedule", "attempts: Int = 3"))
        path = "core/src/main/scala/ox/channels/Channel.scala"
        assert symbols(d, "fx", "Channel") == [(path, "Channel", "class", 4, 5), (path, "Channel", "class", 7, 10)]
        assert symbols(d, "fx", "Channel.default") == [(path, "Channel.default", "method", 9, 9)]
        assert symbols(d, "fx", "ChannelState.Done") == [(path, "ChannelState.Done", "constant", 13, 13)]
        assert symbols(d, "fx", "ChannelState") == [(path, "ChannelState", "enum", 12, 13)]
        # the doc comment of `sleep` is not the end of `next`
        assert symbols(d, "fx", "RetryConfig.next") == [(path, "RetryConfig.next", "method", 16, 16)]
