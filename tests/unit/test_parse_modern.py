"""Current syntax of the supported languages: each construct yields the symbol a reader
expects, with exact names, kinds and lines (conformance case 29 is the Python alias case;
case 33 the nesting-depth one)."""

from __future__ import annotations

import pytest
from coderecalld.parse import symbols


def table(source: str, language: str) -> list[tuple[str, str, int, int]]:
    """``(qualified_name, kind, start_line, end_line)`` of each symbol of ``source``."""
    parsed = symbols(source.encode("utf-8"), language)
    return [(s.qualified_name, str(s.kind), s.start_line, s.end_line) for s in parsed.symbols]


PEP_695 = '''\
type Cell = str | int
type Matrix[T] = list[list[T]]
type Bounded[T: int, *Ts, **P] = dict[T, P]


class Box[T: (int, str)](Base):
    type Item = list[T]

    def get[U](self, default: U) -> T | U:
        return default


def first[T](xs: list[T]) -> T:
    return xs[0]


type(Box).label = "box"
'''


def test_python_type_alias_statements_and_pep695_generics() -> None:
    assert table(PEP_695, "python") == [
        ("Cell", "type_alias", 1, 1),
        ("Matrix", "type_alias", 2, 2),
        ("Bounded", "type_alias", 3, 3),
        ("Box", "class", 6, 10),
        ("Box.Item", "type_alias", 7, 7),
        ("Box.get", "method", 9, 10),
        ("first", "function", 13, 14),
        # line 17, `type(Box).label = ...`, is an assignment the grammar reads as an alias
    ]


def test_python_alias_and_generic_signatures_keep_type_parameters() -> None:
    parsed = {s.qualified_name: s for s in symbols(PEP_695.encode(), "python").symbols}
    assert parsed["Matrix"].signature == "type Matrix[T] = list[list[T]]"
    assert parsed["Bounded"].signature == "type Bounded[T: int, *Ts, **P] = dict[T, P]"
    assert parsed["Box"].signature == "class Box[T: (int, str)](Base)"
    assert parsed["Box.get"].signature == "def get[U](self, default: U) -> T | U"


GO_GENERICS = '''\
package shapes

type Number interface {
	~int | ~float64
}

type Pair[K comparable, V any] struct {
	Key K
	Val V
}

func (p Pair[K, V]) Swap() Pair[K, V] { return p }

func (p *Pair[K, V]) Set(v V) { p.Val = v }

func Map[T, U any](xs []T, f func(T) U) []U {
	return nil
}
'''


def test_go_generic_types_functions_and_methods_on_generic_receivers() -> None:
    assert table(GO_GENERICS, "go") == [
        ("shapes.Number", "interface", 3, 5),
        ("shapes.Pair", "struct", 7, 10),
        ("shapes.Pair.Swap", "method", 12, 12),  # the receiver's type parameters are not the name
        ("shapes.Pair.Set", "method", 14, 14),
        ("shapes.Map", "function", 16, 18),
    ]


JAVA_21 = '''\
package shop;

public sealed interface Shape permits Circle, Square {}

public record Circle(double radius) implements Shape {
    public double area() { return Math.PI * radius * radius; }
}

public final class Square implements Shape {
    double describe(Object o) {
        return switch (o) {
            case Circle c when c.radius() > 1 -> 1.0;
            default -> 0.0;
        };
    }
}
'''


def test_java_sealed_interfaces_records_and_pattern_switch() -> None:
    assert table(JAVA_21, "java") == [
        ("shop.Shape", "interface", 3, 3),
        ("shop.Circle", "class", 5, 7),
        ("shop.Circle.area()", "method", 6, 6),
        ("shop.Square", "class", 9, 16),
        ("shop.Square.describe(Object)", "method", 10, 15),
    ]


RUST_2024 = '''\
pub trait Store {
    async fn load(&self, key: &str) -> Option<String>;
}

impl<T: Clone> Cache<T> {
    pub const fn new() -> Self { Self { items: Vec::new() } }
    pub async fn get(&self) -> Option<T> {
        let Some(x) = self.items.first() else { return None };
        Some(x.clone())
    }
}
'''


def test_rust_async_trait_methods_generic_impls_and_let_else() -> None:
    assert table(RUST_2024, "rust") == [
        ("Store", "trait", 1, 3),
        ("Store::load", "method", 2, 2),
        ("Cache::new", "method", 6, 6),
        ("Cache::get", "method", 7, 10),
    ]


@pytest.mark.parametrize(("language", "source", "last"), [
    ("typescript", "export type Deep =\n" + "Array<\n" * 3000 + "number\n" + ">\n" * 3000 + ";\n\n"
     "export function afterTypes(): number {\n  return f(a.b(c));\n}\n", ("afterTypes", "function", 6005, 6007)),
    ("python", "def nested():\n    return (\n" + "(\n" * 5000 + "1\n" + ")\n" * 5000 + ")\n\n\n"
     "def after():\n    return g(h.i(j))\n", ("after", "function", 10007, 10008)),
])
def test_deep_nesting_keeps_every_symbol_and_its_calls(language: str, source: str,
                                                       last: tuple[str, str, int, int]) -> None:
    """Nesting far past Python's recursion limit (1,000) parses without a RecursionError
    and the symbol after the deep region keeps its range and its calls (case 33)."""
    parsed = symbols(source.encode(), language)
    assert table(source, language)[-1] == last
    assert [(c.name, c.line) for c in parsed.symbols[-1].call_sites] == [
        ("f", last[2] + 1) if language == "typescript" else ("g", last[2] + 1),
        ("a.b", last[2] + 1) if language == "typescript" else ("h.i", last[2] + 1)]


TS_5 = '''\
export abstract class Repo<T extends { id: string }> {
  accessor count = 0;
  constructor(private readonly items: T[]) {}
  abstract find(id: string): T | undefined;
  static of<U extends { id: string }>(xs: U[]): Repo<U> { return null!; }
}
export const config = { mode: "fast" } satisfies Record<string, string>;
export const enum Flag { A = 1 }
export type Handler<T> = (x: T) => void;
export const arrow = async <T,>(x: T): Promise<T> => x;
'''

CSHARP_12 = '''\
namespace Shop;

public record Point(int X, int Y);
public class Service(ILogger logger) : IService
{
    public required string Name { get; init; }
    public void Run() { logger.Log(); }
}
file class Hidden {}
'''

KOTLIN_2 = '''\
package shop

sealed interface Shape
data object Empty : Shape
@JvmInline value class Meters(val v: Double)
fun <T> List<T>.second(): T = this[1]
typealias Handler = (Int) -> Unit
'''

SWIFT_5_9 = '''\
actor Counter {
    var value = 0
    func increment() { value += 1 }
}
class Box<each T> { init() {} }
func generic<T: Equatable>(_ x: T) -> T { x }
'''


@pytest.mark.parametrize(("language", "source", "want"), [
    ("typescript", TS_5, [("Repo", "class", 1, 6), ("Repo.constructor", "method", 3, 3),
                          ("Repo.find", "method", 4, 4), ("Repo.of", "method", 5, 5),
                          ("config", "constant", 7, 7), ("Flag", "enum", 8, 8), ("Handler", "type_alias", 9, 9),
                          ("arrow", "function", 10, 10)]),
    ("csharp", CSHARP_12, [("Shop.Point", "class", 3, 3), ("Shop.Service", "class", 4, 8),
                           ("Shop.Service.Run()", "method", 7, 7), ("Shop.Hidden", "class", 9, 9)]),
    ("kotlin", KOTLIN_2, [("Shape", "interface", 3, 3), ("Empty", "class", 4, 4),
                          ("Meters", "class", 5, 5), ("List<T>.second", "method", 6, 6),
                          ("Handler", "type_alias", 7, 7)]),
    ("swift", SWIFT_5_9, [("Counter", "class", 1, 4), ("Counter.increment", "method", 3, 3),
                          ("Box", "class", 5, 5), ("Box.init", "method", 5, 5),
                          ("generic", "function", 6, 6)]),
])
def test_current_syntax_of_typescript_csharp_kotlin_swift(language: str, source: str,
                                                          want: list[tuple[str, str, int, int]]) -> None:
    """TypeScript 5 (``accessor``, ``satisfies``, const enums, generic arrows), C# 12
    (primary constructors, records, ``file`` types), Kotlin 2 (``data object``, value
    classes, generic extensions), Swift 5.9 (actors, parameter packs)."""
    assert table(source, language) == want


@pytest.mark.parametrize(("language", "source", "want"), [
    ("python", "def отчёт_итог(x):\n    return x\nclass 日本語クラス:\n    def メソッド(self): pass\n",
     ["отчёт_итог", "日本語クラス", "日本語クラス.メソッド"]),
    ("typescript", "export function café(x) { return x }\nclass Ωmega { ütf() {} }\n",
     ["café", "Ωmega", "Ωmega.ütf"]),
    ("go", "package main\nfunc Größe() int { return 1 }\n", ["main.Größe"]),
    ("rust", "fn größe() {}\nstruct Ñandú;\n", ["größe", "Ñandú"]),
    ("java", "class Ünïcode { void méthode() {} }", ["Ünïcode", "Ünïcode.méthode()"]),
    ("csharp", "class Ü { void Mé() {} }", ["Ü", "Ü.Mé()"]),
    ("kotlin", "fun größe() = 1\n", ["größe"]),
    ("swift", "func größe() {}\n", ["größe"]),
])
def test_identifiers_in_any_script(language: str, source: str, want: list[str]) -> None:
    assert [name for name, *_ in table(source, language)] == want
