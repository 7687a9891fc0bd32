"""Receiver types of Java, TypeScript/JavaScript and Go method calls (index/receivers_java,
index/resolve): each construct's exact target, and what stays unknown."""

from __future__ import annotations

from coderecalld import parse
from coderecalld.index import chunk, points, resolve
from coderecalld.records import SymbolKind


def resolved(blob: bytes, language: str, path: str, module: str = "", **kw) -> dict[str, list[tuple[str, str]]]:
    parsed = parse.symbols(blob, language)
    found = resolve.chunks(chunk.chunks("r", path, blob, parsed), parsed, path, module, **kw)
    return {c.qualified_name: [(s.name, s.target) for s in c.call_sites if "." in s.name] for c in found}


def bases(blob: bytes, language: str, path: str, module: str = "") -> dict[str, tuple[str, ...]]:
    parsed = parse.symbols(blob, language)
    found = resolve.chunks(chunk.chunks("r", path, blob, parsed), parsed, path, module)
    return {c.qualified_name: c.bases for c in found if c.bases}


JAVA = b"""package com.acme.app;

import com.acme.db.Store;
import java.util.List;

public class Service extends Base implements Runnable, Api {
    private final Store store;
    private Helper helper = new Helper();
    private int count;

    public Service(Store store) {
        this.store = store;
    }

    public void run(Store s, final Other o, int n, Helper... hs) {
        Store local = s;
        var h = new Helper();
        var unknown = make();
        List<String> xs = List.of();
        this.store.save();
        store.load();
        s.save();
        h.work();
        o.work();
        super.run();
        local.flush();
        xs.add("a");
        helper.work();
        unknown.work();
        hs.clone();
        for (Store st : stores) { st.close(); }
        this.helper.own();
        this.step();
        String t = "x";
        t.trim();
        items.forEach(it -> it.go());
        Service.this.step();
        Helper.INSTANCE.work();
        Map.Entry.comparingByKey();
    }

    void twice(boolean b) {
        if (b) { Store x = a(); x.save(); } else { Helper x = b(); x.save(); }
    }

    void step() {}
}

class Helper extends Base {
    void own() {}
}
"""


def test_java_receivers_typed_by_declarations() -> None:
    sites = resolved(JAVA, "java", "src/com/acme/app/Service.java")
    assert sites["com.acme.app.Service.run(Store,Other,int,Helper...)"] == [
        ("List.of", "java.util.List.of"),
        ("this.store.save", "com.acme.db.Store.save"),  # a field through this.
        ("store.load", "com.acme.db.Store.load"),  # the field, bare
        ("s.save", "com.acme.db.Store.save"),  # a parameter
        ("h.work", "com.acme.app.Helper.work"),  # var h = new Helper()
        ("o.work", "com.acme.app.Other.work"),  # a final parameter, same package
        ("super.run", "com.acme.app.Base.run"),  # the extends base
        ("local.flush", "com.acme.db.Store.flush"),  # a local declaration
        ("xs.add", "java.util.List.add"),  # type arguments dropped
        ("helper.work", "com.acme.app.Helper.work"),
        ("unknown.work", ""),  # var of a method's result: not followed
        ("hs.clone", ""),  # varargs: an array
        ("st.close", "com.acme.db.Store.close"),  # for-each
        ("this.helper.own", "com.acme.app.Helper.own"),
        ("this.step", "com.acme.app.Service.step"),
        ("t.trim", ""),  # java.lang.String: no project type
        # not declared here, in a class extending another file's: that base's field, if
        # any (``via`` attribute: its type is the declaring file's to say)
        ("items.forEach", "com.acme.app.Service.items.forEach"),
        ("it.go", ""),  # a lambda parameter
        ("Service.this.step", "com.acme.app.Service.step"),  # the outer instance
        ("Helper.INSTANCE.work", ""),  # a static field: its type is not read from another class
        ("Map.Entry.comparingByKey", "com.acme.app.Map.Entry.comparingByKey"),  # a nested type's static method
    ]
    # The same name declared with two types in one method has none.
    assert sites["com.acme.app.Service.twice(boolean)"] == [("x.save", ""), ("x.save", "")]


def test_java_inherited_method_of_a_same_file_base_and_bases_payload() -> None:
    blob = JAVA.replace(b"void own() {}", b"void own() {}\n    void work() {}").replace(
        b"class Helper extends Base", b"class Sub extends Helper {}\n\nclass Helper extends Base")
    blob = blob.replace(b"var h = new Helper();", b"var h = new Sub();")
    sites = resolved(blob, "java", "src/com/acme/app/Service.java")
    assert ("h.work", "com.acme.app.Helper.work") in sites["com.acme.app.Service.run(Store,Other,int,Helper...)"]
    # Extended and implemented types, qualified (java.lang's Runnable is no project type).
    assert bases(blob, "java", "src/com/acme/app/Service.java") == {
        "com.acme.app.Service": ("com.acme.app.Base", "com.acme.app.Api"),
        "com.acme.app.Sub": ("com.acme.app.Helper",), "com.acme.app.Helper": ("com.acme.app.Base",)}


TS = b"""import { Store, Base } from "./store";
import * as db from "./db";

export class Service extends Base implements db.Api {
  private cache: Cache;
  helper = new Helper();
  readonly conn: db.Conn | null;
  count: number;

  constructor(private store: Store, public readonly peer?: Service, plain?) {
    super(store);
    this.cache = new Cache();
  }

  run(s: Store, o: Other, n: number, xs: Store[]): void {
    const h = new Helper();
    let x: Store;
    const m = makeStore();
    const u = unknown();
    const fn = (q: Store) => q.save();
    this.store.save();
    this.cache.get();
    this.helper.work();
    this.peer.run();
    this.conn.query();
    s.save();
    o.work();
    h.work();
    h.base();
    x.load();
    m.flush();
    u.flush();
    super.run();
    n.toFixed();
    xs.pop();
    this.count.toFixed();
  }
}

class Cache {
  get() {}
}

class Helper extends Cache {
  work() {}
}

function makeStore(): Store {
  return new Store();
}

export function top(svc: Service) {
  svc.run();
}
"""


def test_ts_receivers_typed_by_annotations_constructors_and_fields() -> None:
    sites = resolved(TS, "typescript", "src/app.ts", "src/app")
    assert sites["Service.run"] == [
        ("this.store.save", "src/store.Store.save"),  # a constructor parameter property
        ("this.cache.get", "src/app.Cache.get"),  # this.cache = new Cache() (and the field)
        ("this.helper.work", "src/app.Helper.work"),  # a field initialised with new
        ("this.peer.run", "src/app.Service.run"),
        ("this.conn.query", "src/db.Conn.query"),  # a namespace import's type, `| null` dropped
        ("s.save", "src/store.Store.save"),  # a parameter
        ("o.work", ""),  # Other is neither imported nor defined here
        ("h.work", "src/app.Helper.work"),  # const h = new Helper()
        ("h.base", "src/app.Helper.base"),  # not defined here: the query follows Helper's bases
        ("x.load", "src/store.Store.load"),  # let x: Store
        ("m.flush", "src/store.Store.flush"),  # makeStore(): Store, one level
        ("u.flush", ""),
        ("super.run", "src/store.Base.run"),  # the extends base
        ("n.toFixed", ""), ("xs.pop", ""), ("this.count.toFixed", ""),  # global types, an array
    ]
    assert sites["Service.run.fn"] == [("q.save", "src/store.Store.save")]  # an arrow's own parameter
    assert sites["top"] == [("svc.run", "src/app.Service.run")]
    # A same-file subclass that does not define the method: the base that does.
    blob = TS.replace(b"const h = new Helper();", b"const h: Helper = new Helper();")
    assert ("h.get", "src/app.Cache.get") in resolved(blob.replace(b"h.base()", b"h.get()"), "typescript",
                                                      "src/app.ts", "src/app")["Service.run"]
    assert bases(TS, "typescript", "src/app.ts", "src/app") == {
        "Service": ("src/store.Base", "src/db.Api"), "Helper": ("src/app.Cache",)}


def test_js_constructor_assigned_locals_and_this_fields() -> None:
    blob = b"""const { Store } = require("./store");

class App {
  constructor() {
    this.store = new Store();
  }
  run() {
    const s = new Store();
    s.save();
    this.store.load();
    let t = s;
    t.save();
    const run = () => {
      for (const s of this.all) {
        s.save();
      }
    };
  }
}
"""
    sites = resolved(blob, "javascript", "lib/app.js", "lib/app")
    assert sites["App.run"] == [("s.save", "lib/store.Store.save"), ("this.store.load", "lib/store.Store.load"),
                                ("t.save", "lib/store.Store.save")]
    # A loop variable shadows the enclosing function's `s`: untyped.
    assert sites["App.run.run"] == [("s.save", "")]


GO = b"""package util

import (
\t"database/sql"
\t"net/http"

\t"example.com/a/db"
)

type Server struct {
\tdb    *db.DB
\tcache Cache
\tlog, audit *Logger
\tBase
\t*db.Mixin
\thttp.Handler
\tconn  sql.Conn `json:"conn"`
}

type Cache interface {
\tGet(k string) string
}

func NewServer(d *db.DB) (*Server, error) {
\treturn &Server{db: d}, nil
}

func (s *Server) Run(c Cache, opts Options, l, m *Logger, rest ...*Logger) error {
\ta := Server{}
\tb := &Server{db: nil}
\tp := new(Server)
\tvar q Server
\tvar r *db.Conn
\tn, err := NewServer(nil)
\tx, y := pair()
\ta.Run(nil, nil, nil, nil)
\tb.Stop()
\tp.Stop()
\tq.Stop()
\tr.Close()
\tn.Stop()
\terr.Error()
\ts.db.Query()
\ts.cache.Get("k")
\ts.audit.Info()
\ts.conn.Close()
\tl.Info()
\tm.Info()
\tc.Get("k")
\topts.Apply()
\ts.Promoted()
\ts.Base.Own()
\ts.Mixin.Mix()
\ts.Handler.Serve()
\tx.Stop()
\tfor _, it := range items {
\t\tit.Stop()
\t}
\tgo func(w *Worker) {
\t\tw.Work()
\t}(nil)
\treturn nil
}

func (s *Server) Stop() {}
"""


def test_go_receivers_typed_by_literals_pointers_and_fields() -> None:
    sites = resolved(GO, "go", "util/s.go", "example.com/a/util")
    u = "example.com/a/util"
    assert sites["util.Server.Run"] == [
        ("a.Run", f"{u}.Server.Run"),  # x := T{}
        ("b.Stop", f"{u}.Server.Stop"),  # x := &T{...}
        ("p.Stop", f"{u}.Server.Stop"),  # new(T)
        ("q.Stop", f"{u}.Server.Stop"),  # var x T, T a struct of this file
        ("r.Close", "example.com/a/db.Conn.Close"),  # var x *pkg.T
        ("n.Stop", f"{u}.Server.Stop"),  # NewServer() (*Server, error)
        ("err.Error", ""),  # the second result: not followed
        ("s.db.Query", "example.com/a/db.DB.Query"),  # a field of the receiver's struct
        # Cache is an interface: the interface's own method (an implementation's override)
        ("s.cache.Get", f"{u}.Cache.Get"),
        ("s.audit.Info", f"{u}.Logger.Info"),  # `log, audit *Logger`
        # a value of another package's type: may be an interface (named as the field, `via`)
        ("s.conn.Close", f"{u}.Server.conn.Close"),
        ("l.Info", f"{u}.Logger.Info"), ("m.Info", f"{u}.Logger.Info"),  # `l, m *Logger`
        ("c.Get", f"{u}.Cache.Get"),  # a parameter declared with an interface: its own method
        ("opts.Apply", f"{u}.Options.Apply"),  # another file's named type: its method
        ("s.Promoted", f"{u}.Server.Promoted"),  # the receiver (as before); the query follows Base
        # an embedded value of another file's type: that type's method
        ("s.Base.Own", f"{u}.Base.Own"),
        ("s.Mixin.Mix", "example.com/a/db.Mixin.Mix"),  # an embedded pointer
        ("s.Handler.Serve", f"{u}.Server.Handler.Serve"),  # an embedded interface (the field, `via`)
        ("x.Stop", f"{u}.pair().Stop"),  # another file's function's first result: named by it
        ("it.Stop", ""),  # a range variable
        ("w.Work", f"{u}.Worker.Work"),  # a function literal's parameter
    ]
    assert bases(GO, "go", "util/s.go", "example.com/a/util") == {
        "util.Server": (f"{u}.Base", "example.com/a/db.Mixin", "net/http.Handler")}  # embedded types


def test_type_parameters_type_nothing() -> None:
    java = b"""package p;
public class Box<T extends Comparable<T>, K> extends Base<T> {
    private T item;
    public <E> List<E> put(E e, T t, K k, Other o) {
        e.go();
        item.compareTo(t);
        k.hashCode();
        o.run();
    }
}
"""
    assert resolved(java, "java", "p/Box.java")["p.Box.put(E,T,K,Other)"] == [
        ("e.go", ""), ("item.compareTo", ""), ("k.hashCode", ""), ("o.run", "p.Other.run")]
    go = b"""package util

func Map[T any, K comparable](x *T, k K, s *Server) {
\tx.Run()
\ts.Run()
}

func (s *Set[T]) Add(v *T, w *Server) {
\tv.Run()
\tw.Run()
}
"""
    sites = resolved(go, "go", "util/g.go", "example.com/a/util")
    assert sites["util.Map"] == [("x.Run", ""), ("s.Run", "example.com/a/util.Server.Run")]
    assert sites["util.Set.Add"] == [("v.Run", ""), ("w.Run", "example.com/a/util.Server.Run")]


KOTLIN = b"""package com.acme.app

import com.acme.db.Store
import com.acme.io.Writer as W
import com.acme.util.*

class Service(private val store: Store, val name: String, plain: Cache) : Base(), Api {
    private val helper = Helper()
    lateinit var writer: W

    fun run(s: Store, o: Other?, n: Int) {
        val h = Helper()
        var x: Store = s
        val made = make()
        store.save()
        this.store.load()
        this.writer.flush()
        h.work()
        o?.work()
        x.flush()
        super.run()
        helper.work()
        made.work()
        n.plus(1)
        name.trim()
        plain.get()
        Util.go()
        step()
        this.step()
        top(this)
        items.forEach { it -> it.go() }
    }

    fun step() {}
}

fun top(svc: Service) {
    svc.run(null, null, 1)
}
"""


def test_kotlin_calls_and_receivers() -> None:
    path = "src/main/kotlin/com/acme/app/Service.kt"
    parsed = parse.symbols(KOTLIN, "kotlin")
    assert parsed.import_aliases == (("Store", "com.acme.db.Store"), ("W", "com.acme.io.Writer"),
                                     ("*", "com.acme.util"))
    found = resolve.chunks(chunk.chunks("r", path, KOTLIN, parsed), parsed, path, "")
    sites = {c.qualified_name: [(s.name, s.target) for s in c.call_sites] for c in found}
    assert sites["Service.run"] == [
        ("Helper", "com.acme.util.Helper"),  # a constructor, through the only wildcard import
        ("make", ""),  # neither this file's nor imported
        ("store.save", "com.acme.db.Store.save"),  # a constructor property
        ("this.store.load", "com.acme.db.Store.load"),
        ("this.writer.flush", "com.acme.io.Writer.flush"),  # lateinit var, an import alias
        ("h.work", "com.acme.util.Helper.work"),  # val h = Helper()
        ("work", ""),  # o?.work(): a safe call is recorded by its name only
        ("x.flush", "com.acme.db.Store.flush"),  # var x: Store
        ("super.run", "com.acme.util.Base.run"),  # the first supertype
        ("helper.work", "com.acme.util.Helper.work"),  # a property initialised by a constructor
        ("made.work", ""),  # a function's result
        ("n.plus", ""), ("name.trim", ""),  # Kotlin's own types
        ("plain.get", ""),  # a plain constructor parameter is no property
        ("Util.go", "com.acme.util.Util.go"),
        ("step", "com.acme.app.Service.step"), ("this.step", "com.acme.app.Service.step"),
        ("top", "com.acme.app.top"),  # a top-level function of this file
        ("items.forEach", ""), ("it.go", "")]
    assert sites["top"] == [("svc.run", "com.acme.app.Service.run")]
    assert {c.qualified_name: c.bases for c in found if c.bases} == {
        "Service": ("com.acme.util.Base", "com.acme.util.Api")}
    assert {c.qualified_name: points.fq_name(c) for c in found if c.kind is not SymbolKind.MODULE} == {
        "Service": "com.acme.app.Service", "Service.run": "com.acme.app.Service.run",
        "Service.step": "com.acme.app.Service.step", "top": "com.acme.app.top"}


def test_a_constructor_whose_value_is_called_again_types_nothing() -> None:
    java = b"""package p;
class A {
    void f() {
        var b = new Builder().build();
        var c = new Builder(1);
        b.run();
        c.run();
    }
}
"""
    assert resolved(java, "java", "p/A.java")["p.A.f()"] == [("b.run", ""), ("c.run", "p.Builder.run")]
    ts = b"""import { Builder } from "./b";
function make(): Builder {
  return new Builder();
}
export function f() {
  const b = new Builder().build();
  const c = make().other();
  const d = make();
  b.run();
  c.run();
  d.run();
}
"""
    # what `build` and `other` return is `b.ts`'s to declare: the query side reads it
    # (``callgraph.chained``), the construction's class is not the value's
    assert resolved(ts, "typescript", "src/a.ts", "src/a")["f"] == [
        ("b.run", "src/b.Builder.build().run"), ("c.run", "src/b.Builder.other().run"), ("d.run", "src/b.Builder.run")]
    kotlin = b"""package p

fun f() {
    val b = Moshi.Builder().build()
    val c = Moshi.Builder()
    b.run()
    c.run()
}
"""
    assert resolved(kotlin, "kotlin", "p/A.kt")["f"][-2:] == [("b.run", ""), ("c.run", "p.Moshi.Builder.run")]


def test_super_inside_an_anonymous_class_is_not_the_enclosing_classs() -> None:
    java = b"""package p;
class A extends Base {
    void f() {
        super.f();
        Runnable r = new Task(1) {
            public void run() {
                super.run();
            }
        };
    }
}
"""
    sites = resolved(java, "java", "p/A.java")
    assert [s for sites_ in sites.values() for s in sites_] == [("super.f", "p.Base.f"), ("super.run", "")]
    kotlin = b"""package p

class A : Base() {
    fun f() {
        super.f()
        val r = object : Task(1) {
            override fun run() {
                super.run()
            }
        }
    }
}
"""
    sites = resolved(kotlin, "kotlin", "p/A.kt")
    # the object a property holds is a class named by it (A.f.r), its base Task: its
    # super.run() is Task's, never A's base's
    assert [s for sites_ in sites.values() for s in sites_] == [("super.f", "p.Base.f"), ("super.run", "p.Task.run")]
