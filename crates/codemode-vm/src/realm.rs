//! The realm (the global object, the intrinsic prototypes, common atoms) and the allocation
//! helpers every other module uses to make strings, objects, arrays, errors and closures.

use codemode_bytecode::{ASYNC_ITERATOR_SYMBOL, CaptureSource, Constant, ErrorKind};
use serde::{Deserialize, Serialize};

use crate::Vm;
use crate::builtins::{self, Native};
use crate::call::Pending;
use crate::call::Throw;
use crate::frame::ReturnTo;
use crate::heap::{Heap, JsString, OutOfMemory};
use crate::host::FailureKind;
use crate::object::{Callable, Captures, ErrorInfo, ObjKind, Object};
use crate::props::Key;
use crate::value::{Atom, CellId, ObjId, Value};

/// Atoms the VM needs by identity.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CommonAtoms {
    pub length: Atom,
    pub then: Atom,
    pub prototype: Atom,
    pub constructor: Atom,
    pub message: Atom,
    pub name: Atom,
    pub status: Atom,
    pub value: Atom,
    pub done: Atom,
    pub cause: Atom,
}

/// The well-known symbols (`Symbol.iterator`, ...), made with the realm.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct WellKnownSymbols {
    pub async_dispose: Atom,
    pub async_iterator: Atom,
    pub dispose: Atom,
    pub has_instance: Atom,
    pub is_concat_spreadable: Atom,
    pub iterator: Atom,
    pub match_: Atom,
    pub match_all: Atom,
    pub replace: Atom,
    pub search: Atom,
    pub species: Atom,
    pub split: Atom,
    pub to_primitive: Atom,
    pub to_string_tag: Atom,
    pub unscopables: Atom,
}

impl WellKnownSymbols {
    /// Every well-known symbol with its name (`Symbol.<name>`).
    pub fn all(&self) -> [(&'static str, Atom); 15] {
        [
            ("asyncDispose", self.async_dispose),
            ("asyncIterator", self.async_iterator),
            ("dispose", self.dispose),
            ("hasInstance", self.has_instance),
            ("isConcatSpreadable", self.is_concat_spreadable),
            ("iterator", self.iterator),
            ("match", self.match_),
            ("matchAll", self.match_all),
            ("replace", self.replace),
            ("search", self.search),
            ("species", self.species),
            ("split", self.split),
            ("toPrimitive", self.to_primitive),
            ("toStringTag", self.to_string_tag),
            ("unscopables", self.unscopables),
        ]
    }

    /// The well-known symbol `Symbol.<name>`.
    pub fn named(&self, name: &str) -> Option<Atom> {
        self.all().into_iter().find(|&(n, _)| n == name).map(|(_, a)| a)
    }

    fn new(atoms: &mut crate::heap::Atoms) -> Self {
        let mut make =
            |name: &str| atoms.insert_kind(&format!("Symbol.{name}"), crate::heap::AtomKind::DescribedSymbol);
        WellKnownSymbols {
            async_dispose: make("asyncDispose"),
            async_iterator: make("asyncIterator"),
            dispose: make("dispose"),
            has_instance: make("hasInstance"),
            is_concat_spreadable: make("isConcatSpreadable"),
            iterator: make("iterator"),
            match_: make("match"),
            match_all: make("matchAll"),
            replace: make("replace"),
            search: make("search"),
            species: make("species"),
            split: make("split"),
            to_primitive: make("toPrimitive"),
            to_string_tag: make("toStringTag"),
            unscopables: make("unscopables"),
        }
    }
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Realm {
    pub global: ObjId,
    pub object_proto: ObjId,
    pub function_proto: ObjId,
    pub array_proto: ObjId,
    pub string_proto: ObjId,
    pub number_proto: ObjId,
    /// `BigInt.prototype`.
    pub bigint_proto: ObjId,
    pub boolean_proto: ObjId,
    pub symbol_proto: ObjId,
    pub promise_proto: ObjId,
    pub iterator_proto: ObjId,
    /// `%IteratorHelperPrototype%` (the prototype of what `map`, `filter`, `Iterator.concat`,
    /// `Iterator.zip`, ... return) and `%WrapForValidIteratorPrototype%` (`Iterator.from`'s
    /// wrappers); both inherit from the iterator prototype.
    pub iterator_protos: [ObjId; 2],
    /// `%GeneratorPrototype%`: `next`, `return`, `throw`; inherits from the iterator prototype.
    pub generator_proto: ObjId,
    /// `%AsyncGeneratorPrototype%`: `next`, `return`, `throw` returning promises.
    pub async_generator_proto: ObjId,
    pub regexp_proto: ObjId,
    pub date_proto: ObjId,
    pub map_proto: ObjId,
    pub set_proto: ObjId,
    /// `WeakMap.prototype`, `WeakSet.prototype`, `WeakRef.prototype`, `FinalizationRegistry.prototype`.
    pub weak_protos: [ObjId; 4],
    /// `DisposableStack.prototype`, `AsyncDisposableStack.prototype`.
    pub disposable_protos: [ObjId; 2],
    /// `URL.prototype`, `URLSearchParams.prototype`, `%URLSearchParamsIteratorPrototype%`.
    pub url_protos: [ObjId; 3],
    /// Error.prototype and the native error prototypes, indexed by [`ErrorKind`] order.
    pub error_protos: [ObjId; 5],
    /// The prototypes of `AggregateError`, `URIError`, `EvalError`, `SuppressedError`, in
    /// `builtins/error_more.rs`'s order (internal slots: found even when a program reassigns the
    /// globals).
    pub more_error_protos: [ObjId; 4],
    /// `ArrayBuffer`, typed arrays, `DataView`, `TextEncoder`/`TextDecoder`.
    pub binary: builtins::BinaryProtos,
    pub atoms: CommonAtoms,
    pub symbols: WellKnownSymbols,
    /// Pre-made values of every constant of every function (strings allocated once).
    pub consts: Vec<Vec<Value>>,
    /// The atom of every string constant (`Atom(u32::MAX)` for non-strings).
    pub const_atoms: Vec<Vec<Atom>>,
}

impl Realm {
    /// Every intrinsic object the realm names: roots of every collection (a restored heap has no
    /// pristine base that keeps them, and a program can delete every global that reaches them).
    /// The pattern names every field, so a new one cannot be left out of the roots.
    pub(crate) fn objects(&self) -> impl Iterator<Item = ObjId> + '_ {
        let Realm {
            global,
            object_proto,
            function_proto,
            array_proto,
            string_proto,
            number_proto,
            bigint_proto,
            boolean_proto,
            symbol_proto,
            promise_proto,
            iterator_proto,
            iterator_protos,
            generator_proto,
            async_generator_proto,
            regexp_proto,
            date_proto,
            map_proto,
            set_proto,
            weak_protos,
            disposable_protos,
            url_protos,
            error_protos,
            more_error_protos,
            binary,
            atoms: _,
            symbols: _,
            consts: _,
            const_atoms: _,
        } = self;
        [
            *global,
            *object_proto,
            *function_proto,
            *array_proto,
            *string_proto,
            *number_proto,
            *bigint_proto,
            *boolean_proto,
            *symbol_proto,
            *promise_proto,
            *iterator_proto,
            *generator_proto,
            *async_generator_proto,
            *regexp_proto,
            *date_proto,
            *map_proto,
            *set_proto,
        ]
        .into_iter()
        .chain(iterator_protos.iter().copied())
        .chain(weak_protos.iter().copied())
        .chain(disposable_protos.iter().copied())
        .chain(url_protos.iter().copied())
        .chain(error_protos.iter().copied())
        .chain(more_error_protos.iter().copied())
        .chain(binary.ids())
    }

    /// Allocates the intrinsic objects. Built-in functions are installed by [`builtins::install`].
    pub fn new(heap: &mut Heap) -> Result<Realm, OutOfMemory> {
        let empty = heap.alloc_string(crate::heap::JsString::new(""))?;
        let mut obj = |proto: Option<ObjId>, kind: ObjKind| heap.alloc_object(Object::with_kind(proto, kind));
        let object_proto = obj(None, ObjKind::Plain)?;
        let p = Some(object_proto);
        let function_proto = obj(p, ObjKind::Plain)?;
        let array_proto = obj(p, ObjKind::Array(crate::object::Elements::new()))?;
        // `String.prototype`, `Number.prototype` and `Boolean.prototype` are themselves wrappers
        // of "", 0 and false.
        let string_proto = obj(p, ObjKind::Boxed(Value::Str(empty)))?;
        let number_proto = obj(p, ObjKind::Boxed(Value::Number(0.0)))?;
        let bigint_proto = obj(p, ObjKind::Plain)?;
        let boolean_proto = obj(p, ObjKind::Boxed(Value::Bool(false)))?;
        let symbol_proto = obj(p, ObjKind::Plain)?;
        let promise_proto = obj(p, ObjKind::Plain)?;
        let iterator_proto = obj(p, ObjKind::Plain)?;
        let generator_proto = obj(Some(iterator_proto), ObjKind::Plain)?;
        let async_generator_proto = obj(p, ObjKind::Plain)?;
        let regexp_proto = obj(p, ObjKind::Plain)?;
        let date_proto = obj(p, ObjKind::Plain)?;
        let map_proto = obj(p, ObjKind::Plain)?;
        let set_proto = obj(p, ObjKind::Plain)?;
        let weak_protos = [
            obj(p, ObjKind::Plain)?,
            obj(p, ObjKind::Plain)?,
            obj(p, ObjKind::Plain)?,
            obj(p, ObjKind::Plain)?,
        ];
        let disposable_protos = [obj(p, ObjKind::Plain)?, obj(p, ObjKind::Plain)?];
        let url_protos =
            [obj(p, ObjKind::Plain)?, obj(p, ObjKind::Plain)?, obj(Some(iterator_proto), ObjKind::Plain)?];
        let error_proto = obj(p, ObjKind::Plain)?;
        let ep = Some(error_proto);
        let error_protos = [
            error_proto,
            obj(ep, ObjKind::Plain)?,
            obj(ep, ObjKind::Plain)?,
            obj(ep, ObjKind::Plain)?,
            obj(ep, ObjKind::Plain)?,
        ];
        let more_error_protos = [
            obj(ep, ObjKind::Plain)?,
            obj(ep, ObjKind::Plain)?,
            obj(ep, ObjKind::Plain)?,
            obj(ep, ObjKind::Plain)?,
        ];
        let global = obj(p, ObjKind::Plain)?;
        let binary = builtins::BinaryProtos::new(object_proto, &mut obj)?;
        let iterator_protos =
            [obj(Some(iterator_proto), ObjKind::Plain)?, obj(Some(iterator_proto), ObjKind::Plain)?];
        let atoms = &mut heap.atoms;
        let atoms = CommonAtoms {
            length: atoms.intern("length"),
            then: atoms.intern("then"),
            prototype: atoms.intern("prototype"),
            constructor: atoms.intern("constructor"),
            message: atoms.intern("message"),
            name: atoms.intern("name"),
            status: atoms.intern("status"),
            value: atoms.intern("value"),
            done: atoms.intern("done"),
            cause: atoms.intern("cause"),
        };
        let symbols = WellKnownSymbols::new(&mut heap.atoms);
        Ok(Realm {
            global,
            object_proto,
            function_proto,
            array_proto,
            string_proto,
            number_proto,
            bigint_proto,
            boolean_proto,
            symbol_proto,
            promise_proto,
            iterator_proto,
            iterator_protos,
            generator_proto,
            async_generator_proto,
            regexp_proto,
            date_proto,
            map_proto,
            set_proto,
            weak_protos,
            disposable_protos,
            url_protos,
            error_protos,
            more_error_protos,
            binary,
            atoms,
            symbols,
            consts: Vec::new(),
            const_atoms: Vec::new(),
        })
    }
}

pub(crate) fn error_index(kind: ErrorKind) -> usize {
    match kind {
        ErrorKind::Error => 0,
        ErrorKind::TypeError => 1,
        ErrorKind::RangeError => 2,
        ErrorKind::ReferenceError => 3,
        ErrorKind::SyntaxError => 4,
    }
}

impl Vm {
    /// Prepares constant values and atoms of every function.
    pub(crate) fn load_constants(&mut self) -> Result<(), OutOfMemory> {
        let module = self.module.clone();
        let mut consts = Vec::with_capacity(module.functions.len());
        let mut atoms = Vec::with_capacity(module.functions.len());
        for f in &module.functions {
            let mut values = Vec::with_capacity(f.constants.len());
            let mut names = Vec::with_capacity(f.constants.len());
            for c in &f.constants {
                match c {
                    Constant::Number(n) => {
                        values.push(Value::Number(*n));
                        names.push(Atom(u32::MAX));
                    }
                    Constant::String(s) => {
                        values.push(Value::Str(self.heap.alloc_string(JsString::new(s.as_str()))?));
                        names.push(self.heap.atoms.intern(s));
                    }
                    Constant::Regex { .. } => {
                        values.push(Value::Undefined);
                        names.push(Atom(u32::MAX));
                    }
                    Constant::BigInt(digits) => {
                        // The verifier checked the digits.
                        let b = digits.parse::<num_bigint::BigInt>().unwrap_or_default();
                        values.push(Value::BigInt(self.heap.alloc_bigint(b)?));
                        names.push(Atom(u32::MAX));
                    }
                }
            }
            consts.push(values);
            atoms.push(names);
        }
        self.realm.consts = consts;
        self.realm.const_atoms = atoms;
        Ok(())
    }

    #[inline]
    pub(crate) fn constant(&self, func: u32, k: u32) -> Value {
        self.realm
            .consts
            .get(func as usize)
            .and_then(|c| c.get(k as usize))
            .copied()
            .unwrap_or(Value::Undefined)
    }

    #[inline]
    pub(crate) fn constant_atom(&self, func: u32, k: u32) -> Atom {
        self.realm.const_atoms.get(func as usize).and_then(|c| c.get(k as usize)).copied().unwrap_or(Atom(0))
    }

    pub(crate) fn constant_str(&self, func: u32, k: u32) -> String {
        match self.module.functions.get(func as usize).and_then(|f| f.constants.get(k as usize)) {
            Some(Constant::String(s)) => s.clone(),
            _ => String::new(),
        }
    }

    /// `LoadInternal`: the internal helper named by constant `k` (only `#internal.*` names; the
    /// compiler emits them for lowered constructs such as `using`), or the well-known symbol
    /// [`ASYNC_ITERATOR_SYMBOL`] names (`yield*` in an async generator looks the method up itself,
    /// whatever the program did to the global `Symbol`).
    pub(crate) fn load_internal(&mut self, func: u32, k: u32) -> Result<Value, Throw> {
        let name = self.constant_str(func, k);
        if name == ASYNC_ITERATOR_SYMBOL {
            return Ok(Value::Symbol(self.realm.symbols.async_iterator));
        }
        match crate::builtins::Native::by_stable_name(&name) {
            Some(native) if name.starts_with("#internal.") => self.alloc_native(native, Vec::new()),
            _ => Err(self.make_error(ErrorKind::TypeError, &format!("unknown internal helper '{name}'"))),
        }
    }

    pub(crate) fn get_global(&mut self, atom: Atom) -> Option<Value> {
        self.cached_global(atom)
    }

    pub(crate) fn out_of_memory(&mut self) -> Throw {
        // The error itself must be allocated even though the budget is spent: lift the limit for
        // that one allocation only.
        let limit = std::mem::replace(&mut self.heap.memory_limit, usize::MAX);
        let error =
            self.make_error(ErrorKind::RangeError, "Out of memory: the program exceeded its memory limit");
        self.heap.memory_limit = limit;
        error
    }

    pub(crate) fn alloc(&mut self, kind: ObjKind, proto: Option<ObjId>) -> Result<ObjId, Throw> {
        match self.heap.alloc_object(Object::with_kind(proto, kind)) {
            Ok(id) => Ok(id),
            Err(OutOfMemory) => Err(self.out_of_memory()),
        }
    }

    pub(crate) fn new_object(&mut self) -> Result<Value, Throw> {
        let proto = Some(self.realm.object_proto);
        Ok(Value::Obj(self.alloc(ObjKind::Plain, proto)?))
    }

    /// A plain object with these data properties (distinct keys), in one allocation: JSON
    /// objects crossing the boundary.
    pub(crate) fn new_object_with(&mut self, slots: Vec<crate::object::Slot>) -> Result<Value, Throw> {
        let mut object = Object::plain(Some(self.realm.object_proto));
        object.props = crate::object::PropMap::from_distinct(slots);
        match self.heap.alloc_object(object) {
            Ok(id) => Ok(Value::Obj(id)),
            Err(OutOfMemory) => Err(self.out_of_memory()),
        }
    }

    /// A new array of `items`: a `Vec`, or an `[a, b]` pair kept inline without an allocation.
    pub(crate) fn new_array(&mut self, items: impl Into<crate::object::Elements>) -> Result<Value, Throw> {
        let items = items.into();
        if items.len() > crate::heap::MAX_ARRAY_LENGTH {
            return Err(self.make_error(ErrorKind::RangeError, "Invalid array length"));
        }
        let proto = Some(self.realm.array_proto);
        Ok(Value::Obj(self.alloc(ObjKind::Array(items), proto)?))
    }

    pub(crate) fn new_string(&mut self, s: &str) -> Result<Value, Throw> {
        self.store_string(JsString::new(s))
    }

    pub(crate) fn new_string_owned(
        &mut self,
        s: impl Into<compact_str::CompactString>,
    ) -> Result<Value, Throw> {
        self.store_string(JsString::new(s))
    }

    /// Puts a made string on the heap. A string that is not ASCII had its UTF-16 index built
    /// character by character (`Utf16Index::build`), which its maker's byte-copy charge does not
    /// cover (appending to a growing non-ASCII string cost about 2 µs per unit of fuel): that
    /// walk is charged here, where every such string passes.
    fn store_string(&mut self, s: JsString) -> Result<Value, Throw> {
        if !s.is_ascii() {
            self.charge(crate::meter::Work::Elements(s.as_str().len()));
        }
        match self.heap.alloc_string(s) {
            Ok(id) => Ok(Value::Str(id)),
            Err(OutOfMemory) => Err(self.out_of_memory()),
        }
    }

    /// A string for a fixed name (`typeof` results and the like).
    pub(crate) fn intern_string(&mut self, s: &str) -> Result<Value, Throw> {
        self.new_string(s)
    }

    /// Appends to an array, charging any growth of its storage before it happens.
    pub(crate) fn array_push(&mut self, arr: Value, v: Value) -> Result<(), Throw> {
        let Value::Obj(id) = arr else { return Ok(()) };
        let (capacity, charged) = match &mut self.heap.obj_mut(id).kind {
            ObjKind::Array(items)
                if items.len() < items.capacity() && items.len() < crate::heap::MAX_ARRAY_LENGTH =>
            {
                items.push(v);
                return Ok(());
            }
            // Doubling (4 at the least); leaving the inline buffer (see `Elements`) allocates
            // the whole new capacity.
            ObjKind::Array(items) => {
                let capacity = (items.capacity() * 2).max(4);
                (capacity, if items.spilled() { capacity - items.capacity() } else { capacity })
            }
            _ => return Ok(()),
        };
        self.charge_memory(charged * crate::heap::VALUE_SIZE)?;
        if let ObjKind::Array(items) = &mut self.heap.obj_mut(id).kind {
            if items.len() >= crate::heap::MAX_ARRAY_LENGTH {
                return Err(self.make_error(ErrorKind::RangeError, "Invalid array length"));
            }
            items.reserve_exact(capacity.saturating_sub(items.len()));
            items.push(v);
        }
        Ok(())
    }

    /// A copy of an array's elements (empty for non-arrays).
    pub(crate) fn array_items(&self, arr: Value) -> Vec<Value> {
        match arr {
            Value::Obj(id) => match &self.heap.obj(id).kind {
                ObjKind::Array(items) => items.to_vec(),
                _ => Vec::new(),
            },
            _ => Vec::new(),
        }
    }

    /// A new Error of `kind` with `message`. Its location is filled in where it is first thrown
    /// (the interpreter's pc is only saved at that point).
    pub(crate) fn make_error(&mut self, kind: ErrorKind, message: &str) -> Value {
        let proto = self.realm.error_protos[error_index(kind)];
        let stack = self.capture_stack();
        let info = ErrorInfo { kind: FailureKind::Execution, location: None, stack };
        let Ok(id) = self.heap.alloc_object(Object::with_kind(Some(proto), ObjKind::Error(info))) else {
            return Value::Undefined;
        };
        if let Ok(Value::Str(s)) = self.new_string(message) {
            let atom = self.realm.atoms.message;
            self.heap.obj_mut(id).props.set(atom, Value::Str(s), crate::object::HIDDEN);
        }
        Value::Obj(id)
    }

    /// A native function object bound to `data`.
    pub(crate) fn alloc_native(&mut self, native: Native, data: Vec<Value>) -> Result<Value, Throw> {
        let proto = Some(self.realm.function_proto);
        let kind = ObjKind::Function(Callable::Native { native, data: data.into_boxed_slice() });
        Ok(Value::Obj(self.alloc(kind, proto)?))
    }

    /// Creates a closure of function `func`, capturing cells per its capture list from the
    /// creating frame (`closure` and the register window at `base`).
    pub(crate) fn make_closure(
        &mut self,
        func: u32,
        closure: Option<ObjId>,
        base: usize,
        this: Value,
    ) -> Result<Value, Throw> {
        // One look at the function's code; the commonest closures capture one binding or none
        // (no list to build).
        let (is_arrow, count, first) = match self.module.functions.get(func as usize) {
            Some(code) => (code.is_arrow, code.captures.len(), code.captures.first().copied()),
            None => (false, 0, None),
        };
        let captures = match (count, first) {
            (0, _) => Captures::Many(Box::default()),
            (1, Some(source)) => Captures::One(self.capture_cell_from(source, closure, base)?),
            _ => self.capture_cells(func, closure, base)?,
        };
        let this = if is_arrow { this } else { Value::Undefined };
        let kind = ObjKind::Function(Callable::Closure { func, captures, this });
        let proto = Some(self.realm.function_proto);
        Ok(Value::Obj(self.alloc(kind, proto)?))
    }

    /// The cells a new closure (or class) of `func` captures from the creating frame.
    #[inline(never)]
    fn capture_cells(&mut self, func: u32, closure: Option<ObjId>, base: usize) -> Result<Captures, Throw> {
        let sources = match self.module.functions.get(func as usize) {
            Some(code) => &code.captures[..],
            None => &[],
        };
        match sources {
            [] => return Ok(Captures::Many(Box::default())),
            [source] => {
                let source = *source;
                return Ok(Captures::One(self.capture_cell_from(source, closure, base)?));
            }
            _ => {}
        }
        let sources: smallvec::SmallVec<[CaptureSource; 8]> = sources.iter().copied().collect();
        let mut captures = Vec::with_capacity(sources.len());
        for source in sources {
            captures.push(self.capture_cell_from(source, closure, base)?);
        }
        Ok(Captures::Many(captures.into_boxed_slice()))
    }

    /// The cell a new closure captures from `source` (a register of the creating frame at
    /// `base`, or a capture of the creating closure); a fresh one if there is none to share
    /// (only a malformed module has none).
    #[inline]
    fn capture_cell_from(
        &mut self,
        source: CaptureSource,
        closure: Option<ObjId>,
        base: usize,
    ) -> Result<CellId, Throw> {
        let cell = match source {
            CaptureSource::Register(r) => match self.stack.get(base + r as usize) {
                Some(Value::Cell(c)) => Some(*c),
                _ => None,
            },
            CaptureSource::Capture(i) => match closure.map(|c| &self.heap.obj(c).kind) {
                Some(ObjKind::Function(
                    Callable::Closure { captures, .. } | Callable::Class { captures, .. },
                )) => captures.get(i as usize).copied(),
                _ => None,
            },
        };
        match cell {
            Some(c) => Ok(c),
            None => self.heap.alloc_cell(Value::Undefined).map_err(|_| self.out_of_memory()),
        }
    }

    /// `class extends parent { .. }`: the constructor (a closure of `func`) with its
    /// `prototype`; `parent` is `Uninit` for a class without `extends`.
    pub(crate) fn make_class(
        &mut self,
        func: u32,
        closure: Option<ObjId>,
        base: usize,
        parent: Value,
        fields: Value,
    ) -> Result<Value, Throw> {
        let (ctor_proto, proto_proto) = match parent {
            Value::Uninit => (self.realm.function_proto, Some(self.realm.object_proto)),
            Value::Null => (self.realm.function_proto, None),
            Value::Obj(p) if self.is_constructor(p) => {
                match self.get_value(parent, Key::Atom(self.realm.atoms.prototype))? {
                    Value::Obj(pp) => (p, Some(pp)),
                    Value::Null => (p, None),
                    _ => {
                        return Err(self.make_error(
                            ErrorKind::TypeError,
                            "Class extends value does not have valid prototype property",
                        ));
                    }
                }
            }
            other => {
                let desc = self.describe_for_error(other);
                let msg = format!("Class extends value {desc} is not a constructor or null");
                return Err(self.make_error(ErrorKind::TypeError, &msg));
            }
        };
        let captures = self.capture_cells(func, closure, base)?;
        let kind = ObjKind::Function(Callable::Class { func, captures, fields });
        let class = self.alloc(kind, Some(ctor_proto))?;
        let prototype = self.alloc(ObjKind::Plain, proto_proto)?;
        self.define_hidden(prototype, "constructor", Value::Obj(class));
        self.define_constructor_prototype(class, Value::Obj(prototype));
        Ok(Value::Obj(class))
    }

    /// Whether `new` can be applied to the object.
    pub(crate) fn is_constructor(&self, id: ObjId) -> bool {
        match &self.heap.obj(id).kind {
            ObjKind::Function(Callable::Class { .. }) => true,
            ObjKind::Function(Callable::Closure { func, .. }) => self
                .module
                .functions
                .get(*func as usize)
                .is_some_and(|f| !f.is_arrow && !f.is_async && !f.is_generator),
            ObjKind::Function(Callable::Native { native, .. }) => builtins::is_constructor(*native),
            ObjKind::Function(Callable::Bound { target, .. }) => {
                matches!(&self.heap.obj(*target).kind, ObjKind::Function(_))
                    || matches!(self.heap.obj(*target).kind, ObjKind::Proxy { constructor: true, .. })
            }
            ObjKind::Proxy { constructor, .. } => *constructor,
            _ => false,
        }
    }

    /// `new callee(...args)`.
    pub(crate) fn construct(&mut self, callee: Value, args: &[Value], dst: u16) -> Result<(), Throw> {
        let Value::Obj(id) = callee else { return Err(self.not_a_constructor(callee)) };
        let pending = self.construct_with(id, args, id, dst, false)?;
        self.deliver(pending)
    }

    /// Constructs `callee` with `new_target` (the class `new` was applied to, which gives the
    /// prototype). `super_call`: the value goes on to bind the caller's `this`
    /// ([`ReturnTo::SuperResult`]) instead of into `dst` alone.
    pub(crate) fn construct_with(
        &mut self,
        callee: ObjId,
        args: &[Value],
        new_target: ObjId,
        dst: u16,
        super_call: bool,
    ) -> Result<Pending, Throw> {
        let into = crate::call::constructed_into(dst, super_call);
        // Unwrap bound functions iteratively; a chain of binds is acyclic, so shorter than the heap.
        let (mut callee, mut new_target) = (callee, new_target);
        let mut all_args: Vec<Value> = Vec::new();
        let mut bound_any = false;
        for _ in 0..self.heap.objects.len() {
            let ObjKind::Function(Callable::Bound { target, args: bound, .. }) = &self.heap.obj(callee).kind
            else {
                break;
            };
            let target = *target;
            let mut joined = bound.to_vec();
            joined.extend_from_slice(if bound_any { &all_args } else { args });
            self.charge(crate::meter::Work::Elements(joined.len()));
            all_args = joined;
            bound_any = true;
            if new_target == callee {
                new_target = target;
            }
            callee = target;
        }
        let args: &[Value] = if bound_any { &all_args } else { args };
        // A proxy without a `construct` trap forwards `new` to its target, `new_target` kept.
        for _ in 0..self.heap.objects.len() {
            let ObjKind::Proxy { target, handler: Some(h), constructor: true, .. } =
                self.heap.obj(callee).kind
            else {
                break;
            };
            if !self.lacks_trap(h, "construct") {
                break;
            }
            callee = target;
        }
        match &self.heap.obj(callee).kind {
            ObjKind::Proxy { constructor: true, .. } => self.proxy_construct(callee, args, new_target, into),
            ObjKind::Function(Callable::Native { native, .. }) => {
                let native = *native;
                if new_target == callee && builtins::is_abstract(native) {
                    let name = native.stable_name();
                    let msg =
                        format!("Abstract class {} not directly constructable", name.trim_start_matches('.'));
                    return Err(self.make_error(codemode_bytecode::ErrorKind::TypeError, &msg));
                }
                let step = builtins::construct_native(self, native, args)?;
                let ret = if new_target == callee {
                    into
                } else {
                    // A built-in's object made for a subclass gets the subclass's prototype.
                    let proto = self.prototype_of_target(new_target)?;
                    ReturnTo::SuperNative { dst, proto }
                };
                self.apply_step(step, ret)
            }
            ObjKind::Function(Callable::Class { func, fields, .. }) => {
                let (func, fields) = (*func, *fields);
                let derived = self
                    .module
                    .functions
                    .get(func as usize)
                    .is_some_and(|f| f.class_kind == codemode_bytecode::ClassKind::Derived);
                if derived {
                    let ret = ReturnTo::ConstructDerived { dst, new_target, super_call };
                    self.push_closure_frame(callee, func, Value::Uninit, args, ret)?;
                    return Ok(None);
                }
                let proto = self.prototype_of_target(new_target)?;
                let this = self.alloc(ObjKind::Plain, Some(proto))?;
                let ret = ReturnTo::Construct { dst, this, new_target, super_call };
                self.push_closure_frame(callee, func, Value::Obj(this), args, ret)?;
                // The field initializer runs first, on top of the constructor's frame.
                if fields != Value::Undefined {
                    let pending = self.call_value(fields, Value::Obj(this), &[], ReturnTo::Discard)?;
                    self.deliver(pending)?;
                }
                Ok(None)
            }
            ObjKind::Function(Callable::Closure { func, .. }) => {
                let func = *func;
                if !self.is_constructor(callee) {
                    return Err(self.not_a_constructor(Value::Obj(callee)));
                }
                let proto = self.prototype_of_target(new_target)?;
                let this = self.alloc(ObjKind::Plain, Some(proto))?;
                let ret = ReturnTo::Construct { dst, this, new_target, super_call };
                self.push_closure_frame(callee, func, Value::Obj(this), args, ret)?;
                Ok(None)
            }
            _ => Err(self.not_a_constructor(Value::Obj(callee))),
        }
    }

    /// `new_target.prototype`, made on first use for plain functions (most functions are never
    /// constructors), falling back to `Object.prototype` when it is not an object.
    pub(crate) fn prototype_of_target(&mut self, new_target: ObjId) -> Result<ObjId, Throw> {
        // A proxy's target answers (its `get` trap is not consulted here).
        let new_target = match self.heap.obj(new_target).kind {
            ObjKind::Proxy { .. } => self.proxy_innermost(new_target)?,
            _ => new_target,
        };
        match self.get_value(Value::Obj(new_target), Key::Atom(self.realm.atoms.prototype))? {
            Value::Obj(p) => Ok(p),
            _ => Ok(self.realm.object_proto),
        }
    }

    fn not_a_constructor(&mut self, v: Value) -> Throw {
        let desc = self.describe_for_error(v);
        self.make_error(ErrorKind::TypeError, &format!("{desc} is not a constructor"))
    }

    pub(crate) fn regex_from_constant(&mut self, func: u32, k: u32) -> Result<Value, Throw> {
        let (source, flags) =
            match self.module.functions.get(func as usize).and_then(|f| f.constants.get(k as usize)) {
                Some(Constant::Regex { pattern, flags }) => (pattern.clone(), flags.clone()),
                _ => (String::new(), String::new()),
            };
        builtins::new_regexp(self, &source, &flags)
    }
}
