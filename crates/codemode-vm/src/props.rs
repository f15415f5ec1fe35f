//! Property lookup, assignment, definition and deletion, with JavaScript's rules for arrays,
//! strings, prototypes and accessors.
//!
//! Getters and setters are JavaScript functions, so these functions never run them: they hand the
//! accessor back ([`Got::Getter`], or the setter from [`Vm::set`]) and the interpreter calls it
//! like any other function. Built-ins that read properties use [`Vm::get_value`], which during a
//! built-in's run calls a getter or proxy trap by replay (`replay.rs`); elsewhere it reads an
//! accessor as `undefined`.

use crate::meter::Work;
use crate::replay::{ReflectMethod, ReplayedOp};
use codemode_bytecode::ErrorKind;

use crate::Vm;
use crate::call::Throw;
use crate::object::integrity::OWN_FUNCTION_PROPS;
use crate::object::{ACCESSOR, Callable, FIXED, HIDDEN, ObjKind, Object, PRIVATE, READONLY};
use crate::value::{Atom, ObjId, Value, as_array_index, parse_array_index};

/// A property key: an array index or an interned name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Key {
    Index(u32),
    Atom(Atom),
}

/// The outcome of a lookup.
pub enum Got {
    Value(Value),
    /// An accessor property: call this getter with the object as `this`.
    Getter(Value),
    /// The lookup reached a proxy (the object itself or one on its chain): the read goes on as
    /// that proxy's `[[Get]]` of `key`, with the original object as receiver (`proxy.rs`).
    Proxy(ObjId, Key),
}

/// What an assignment found on the chain ([`Vm::set`]).
pub enum SetFound {
    /// Done (a data property written or added).
    Done,
    /// An accessor: call this setter with the object as `this`.
    Setter(Value),
    /// A proxy on the chain: the write goes on as its `[[Set]]` (`proxy.rs`).
    Proxy(ObjId),
}

const MAX_PROTO_CHAIN: usize = 10_000;

/// What a property key value names: an array index, or a name (a heap string's text, or text
/// made by conversion).
enum KeyText {
    Index(u32),
    Heap(crate::value::StrId),
    Name(String),
}

impl Vm {
    /// A property key value's index or name, before the name is interned (or looked up).
    fn key_text(&mut self, v: Value) -> Result<KeyText, Throw> {
        Ok(match v {
            Value::Number(n) => match as_array_index(n) {
                Some(i) => KeyText::Index(i),
                None => KeyText::Name(crate::numconv::number_to_string(n)),
            },
            Value::Str(id) => match parse_array_index(self.heap.str(id)) {
                Some(i) => KeyText::Index(i),
                None => KeyText::Heap(id),
            },
            _ => {
                // A key whose conversion runs program code (its own `toString`, `valueOf` or
                // `Symbol.toPrimitive`) converts through `ToPropertyKey` where the compiler emits
                // it (computed keys) and by replay in built-ins; anywhere else it would silently
                // become "[object Object]".
                if matches!(v, Value::Obj(_))
                    && !self.replaying()
                    && self.conversion_step(crate::to_primitive::ConvertOp::ToPropertyKey, v)?.is_some()
                {
                    let msg = "an object whose toString, valueOf or Symbol.toPrimitive is a program \
                               function is not supported as a property key here; convert it first \
                               (obj[String(key)])";
                    return Err(self.make_error(ErrorKind::TypeError, msg));
                }
                let s = self.to_rust_string(v)?;
                match parse_array_index(&s) {
                    Some(i) => KeyText::Index(i),
                    None => KeyText::Name(s),
                }
            }
        })
    }

    /// Converts a property key value (already `ToPropertyKey`-ed or not) to a [`Key`].
    pub(crate) fn to_key(&mut self, v: Value) -> Result<Key, Throw> {
        match v {
            Value::Symbol(a) => return Ok(Key::Atom(a)),
            // ToPropertyKey: ToPrimitive (string hint) once, whose symbol stays a symbol.
            Value::Obj(_) if self.replaying() => {
                if let Some(prim) = self.replay_to_primitive(v, true)? {
                    return self.to_key(prim);
                }
            }
            Value::Str(id) => {
                if let Some(atom) = self.heap.known_atom(id) {
                    return Ok(Key::Atom(atom));
                }
            }
            _ => {}
        }
        Ok(match self.key_text(v)? {
            KeyText::Index(i) => Key::Index(i),
            // A name already interned (the common case: `o[k]` with a key the program used
            // before) is found without copying the text out of the heap.
            KeyText::Heap(id) => match self.heap.string_atom(id) {
                Some(atom) => Key::Atom(atom),
                None => {
                    let s = self.heap.str(id).to_string();
                    let atom = self.intern(&s)?;
                    self.heap.remember_atom(id, atom);
                    Key::Atom(atom)
                }
            },
            KeyText::Name(s) => Key::Atom(self.intern(&s)?),
        })
    }

    /// The atom for a key (index keys become their decimal names).
    pub(crate) fn key_atom(&mut self, key: Key) -> Result<Atom, Throw> {
        match key {
            Key::Atom(a) => Ok(a),
            Key::Index(i) => self.intern(&i.to_string()),
        }
    }

    /// The key of `v` for a read, without interning: `None` when the name was never interned, so
    /// no object can have it (a read of `o["name_" + i]` must not grow the atom table).
    pub(crate) fn existing_key(&mut self, v: Value) -> Result<Option<Key>, Throw> {
        match v {
            Value::Symbol(a) => return Ok(Some(Key::Atom(a))),
            Value::Str(id) => {
                if let Some(atom) = self.heap.known_atom(id) {
                    return Ok(Some(Key::Atom(atom)));
                }
            }
            _ => {}
        }
        Ok(match self.key_text(v)? {
            KeyText::Index(i) => Some(Key::Index(i)),
            KeyText::Heap(id) => self.heap.string_atom(id).map(Key::Atom),
            KeyText::Name(s) => self.heap.atoms.lookup(&s).map(Key::Atom),
        })
    }

    /// `o[v]` for a computed key: reads of names never interned are `undefined` without growing
    /// the atom table (except on `tools` namespaces, whose children are made by name).
    pub(crate) fn get_computed(&mut self, o: Value, v: Value) -> Result<Got, Throw> {
        let is_tool = matches!(o, Value::Obj(id)
            if matches!(self.heap.obj(id).kind, ObjKind::Function(Callable::Tool { .. })));
        if is_tool || o.is_nullish() {
            let key = self.to_key(v)?;
            return self.get(o, key);
        }
        match self.existing_key(v)? {
            Some(key) => self.get(o, key),
            // A proxy's `get` trap sees every key, interned or not.
            None if self.chain_has_proxy(o) => {
                let key = self.to_key(v)?;
                self.get(o, key)
            }
            None => Ok(Got::Value(Value::Undefined)),
        }
    }

    /// The value of a key as a JavaScript string value.
    pub(crate) fn key_to_value(&mut self, key: Key) -> Result<Value, Throw> {
        match key {
            Key::Atom(a) if self.heap.atoms.is_symbol(a) => Ok(Value::Symbol(a)),
            Key::Atom(a) => {
                let s = self.heap.atoms.name(a).to_string();
                let v = self.new_string(&s)?;
                // The string knows its atom (a key from `Object.keys` or `for…in` used as
                // `o[k]` is not looked up again), unless the name reads as an index: that
                // string's key is the index.
                if let Value::Str(id) = v
                    && parse_array_index(&s).is_none()
                {
                    self.heap.remember_atom(id, a);
                }
                Ok(v)
            }
            Key::Index(i) => self.new_string(&i.to_string()),
        }
    }

    /// A string's own property `key`: a character (as a string) or `length`; `None` for
    /// other keys and indices past the end.
    fn string_own(&mut self, s: crate::value::StrId, key: Key) -> Result<Option<Value>, Throw> {
        match key {
            Key::Index(i) => {
                let ch = crate::builtins::Text::of(self.heap.string(s))
                    .at(i as usize)
                    .map(|u| String::from_utf16_lossy(&[u]));
                match ch {
                    Some(c) => Ok(Some(self.new_string(&c)?)),
                    None => Ok(None),
                }
            }
            Key::Atom(a) if a == self.realm.atoms.length => {
                Ok(Some(Value::Number(self.heap.string(s).utf16_len() as f64)))
            }
            _ => Ok(None),
        }
    }

    /// `o[key]`.
    pub(crate) fn get(&mut self, o: Value, key: Key) -> Result<Got, Throw> {
        let start = match o {
            Value::Obj(id) => id,
            Value::Str(s) => {
                if let Some(v) = self.string_own(s, key)? {
                    return Ok(Got::Value(v));
                }
                if let Key::Index(_) = key {
                    return Ok(Got::Value(Value::Undefined));
                }
                self.realm.string_proto
            }
            Value::Number(_) => self.realm.number_proto,
            Value::BigInt(_) => self.realm.bigint_proto,
            Value::Bool(_) => self.realm.boolean_proto,
            Value::Symbol(_) => self.realm.symbol_proto,
            Value::Undefined | Value::Null => {
                let what = if o == Value::Null { "null" } else { "undefined" };
                let name = match key {
                    Key::Atom(a) => self.heap.atoms.name(a).to_string(),
                    Key::Index(i) => i.to_string(),
                };
                let msg = format!("Cannot read properties of {what} (reading '{name}')");
                return Err(self.make_error(ErrorKind::TypeError, &msg));
            }
            Value::Cell(_) | Value::Uninit | Value::ArrayIter(..) => return Ok(Got::Value(Value::Undefined)),
        };
        if key == Key::Atom(self.realm.atoms.prototype) {
            self.materialize_prototype(start)?;
        }
        self.lookup(start, key, o)
    }

    /// A function's `name` and `length` are answered from its code until something looks at the
    /// function's own properties (`hasOwnProperty`, descriptors, `getOwnPropertyNames`,
    /// `delete`, `defineProperty`, `freeze`): then they become real slots (non-writable,
    /// non-enumerable, configurable), so that they can be described, redefined and deleted.
    /// Most functions are never looked at this way, and cost nothing for it.
    pub(crate) fn own_function_props(&mut self, id: ObjId) -> Result<(), Throw> {
        let obj = self.heap.obj(id);
        if obj.props.integrity & OWN_FUNCTION_PROPS != 0 {
            return Ok(());
        }
        let (length, name) = match &obj.kind {
            ObjKind::Function(Callable::Tool { .. }) => return self.list_tool_children(id),
            ObjKind::Function(Callable::Native { native, .. }) => {
                let def = crate::builtins::table().get(native.0 as usize);
                (def.map_or(0.0, |d| d.arity as f64), def.map_or(String::new(), |d| d.function_name()))
            }
            ObjKind::Function(Callable::Closure { func, .. } | Callable::Class { func, .. }) => {
                let code = self.module.functions.get(*func as usize);
                (
                    code.map_or(0.0, |c| f64::from(c.length)),
                    code.and_then(|c| c.name.clone()).unwrap_or_default(),
                )
            }
            _ => return Ok(()),
        };
        // In the order JavaScript lists them: `length`, `name`, then `prototype`.
        let (length_atom, name_atom) = (self.realm.atoms.length, self.realm.atoms.name);
        let name = self.new_string(&name)?;
        self.charge_memory(
            2 * (std::mem::size_of::<crate::object::Slot>() + crate::object::INDEX_ENTRY_BYTES),
        )?;
        let props = &mut self.heap.obj_mut(id).props;
        props.integrity |= OWN_FUNCTION_PROPS;
        for (atom, value) in [(length_atom, Value::Number(length)), (name_atom, name)] {
            if props.find(atom).is_none() {
                props.set(atom, value, READONLY | HIDDEN);
            }
        }
        self.materialize_prototype(id)
    }

    /// A plain function's `prototype` object, made on its first read (most functions are never
    /// constructors; an eager one would cost every closure an object), with `constructor`
    /// pointing back.
    fn materialize_prototype(&mut self, id: ObjId) -> Result<(), Throw> {
        let prototype = self.realm.atoms.prototype;
        let obj = self.heap.obj(id);
        let ObjKind::Function(Callable::Closure { func, .. }) = obj.kind else { return Ok(()) };
        if obj.props.find(prototype).is_some()
            || !self
                .module
                .functions
                .get(func as usize)
                .is_some_and(|f| !f.is_arrow && (!f.is_async || f.is_generator))
        {
            return Ok(());
        }
        let generator =
            self.module.functions.get(func as usize).filter(|f| f.is_generator).map(|f| f.is_async);
        let p = if let Some(is_async) = generator {
            // A generator function's `prototype` is its generators' prototype (no `constructor`).
            let proto = if is_async { self.realm.async_generator_proto } else { self.realm.generator_proto };
            self.alloc(ObjKind::Plain, Some(proto))?
        } else {
            let p = self.alloc(ObjKind::Plain, Some(self.realm.object_proto))?;
            self.define_hidden(p, "constructor", Value::Obj(id));
            p
        };
        let grow = self.heap.obj(id).props.growth_for(prototype);
        self.charge_memory(grow * std::mem::size_of::<crate::object::Slot>())?;
        // Configurable, unlike the specification's (writable, non-configurable): methods and
        // accessors have no `prototype` there, and here they get one on a read, which a
        // program must be able to redefine.
        self.heap.obj_mut(id).props.set(prototype, Value::Obj(p), HIDDEN);
        Ok(())
    }

    /// Walks the prototype chain from `start`.
    fn lookup(&mut self, start: ObjId, key: Key, receiver: Value) -> Result<Got, Throw> {
        let mut cur = Some(start);
        let mut steps = 0;
        // An index's name, looked up once for the whole chain (`None` inside: never interned).
        let mut index_atom: Option<Option<Atom>> = None;
        while let Some(id) = cur {
            steps += 1;
            if steps > MAX_PROTO_CHAIN {
                break;
            }
            let obj = self.heap.obj(id);
            // Own exotic properties first.
            match (&obj.kind, key) {
                (ObjKind::Array(items), Key::Index(i)) => {
                    if let Some(v) = items.get(i as usize) {
                        return Ok(Got::Value(*v));
                    }
                }
                (ObjKind::Array(items), Key::Atom(a)) if a == self.realm.atoms.length => {
                    return Ok(Got::Value(Value::Number(items.len() as f64)));
                }
                // Typed arrays: numeric keys are the buffer's elements, never inherited.
                (ObjKind::TypedArray(t), key) => {
                    let t = t.clone();
                    if let Some(v) = crate::builtins::indexed_get(self, &t, key)? {
                        return Ok(Got::Value(v));
                    }
                }
                // String wrappers (`new String("ab")`): their characters and `length`.
                (ObjKind::Boxed(Value::Str(s)), key @ (Key::Index(_) | Key::Atom(_))) => {
                    let s = *s;
                    if let Some(v) = self.string_own(s, key)? {
                        return Ok(Got::Value(v));
                    }
                }
                // Map and Set `size` (a getter on the prototypes in JavaScript).
                (ObjKind::Map { .. }, Key::Atom(a)) if self.heap.atoms.name(a) == "size" => {
                    return Ok(Got::Value(Value::Number(crate::builtins::map_size(self, id) as f64)));
                }
                (ObjKind::Function(Callable::Native { native, .. }), Key::Atom(a))
                    if (a == self.realm.atoms.name || a == self.realm.atoms.length)
                        && obj.props.integrity & OWN_FUNCTION_PROPS == 0
                        && obj.props.find(a).is_none() =>
                {
                    let def = crate::builtins::table().get(native.0 as usize);
                    if a == self.realm.atoms.length {
                        return Ok(Got::Value(Value::Number(def.map_or(0.0, |d| d.arity as f64))));
                    }
                    let name = def.map_or(String::new(), |d| d.function_name());
                    return Ok(Got::Value(self.new_string(&name).unwrap_or(Value::Undefined)));
                }
                (ObjKind::Function(Callable::Closure { func, .. } | Callable::Class { func, .. }), Key::Atom(a))
                    if (a == self.realm.atoms.name || a == self.realm.atoms.length)
                        && obj.props.integrity & OWN_FUNCTION_PROPS == 0
                        && obj.props.find(a).is_none() =>
                {
                    let code = self.module.functions.get(*func as usize);
                    if a == self.realm.atoms.length {
                        return Ok(Got::Value(Value::Number(code.map_or(0.0, |c| f64::from(c.length)))));
                    }
                    let name = code.and_then(|c| c.name.clone()).unwrap_or_default();
                    return Ok(Got::Value(self.new_string(&name).unwrap_or(Value::Undefined)));
                }
                (ObjKind::Function(Callable::Tool { .. }), Key::Atom(a))
                    // `tools.a` → the namespace or tool `a` below this one.
                    if obj.props.find(a).is_none() && a != self.realm.atoms.then => {
                        return Ok(Got::Value(self.read_tool_member(id, a).unwrap_or(Value::Undefined)));
                    }
                _ => {}
            }
            let atom = match key {
                Key::Atom(a) => Some(a),
                Key::Index(i) => {
                    if self.heap.obj(id).props.is_empty() {
                        None
                    } else {
                        *index_atom.get_or_insert_with(|| self.heap.atoms.lookup_index(i))
                    }
                }
            };
            let obj = self.heap.obj(id);
            if let Some(atom) = atom
                && let Some(slot) = obj.props.get(atom)
            {
                if slot.flags & ACCESSOR != 0 {
                    if let Value::Obj(acc) = slot.value()
                        && let ObjKind::Accessor { get, .. } = self.heap.obj(acc).kind
                    {
                        return Ok(match get {
                            Value::Undefined => Got::Value(Value::Undefined),
                            g => Got::Getter(g),
                        });
                    }
                    return Ok(Got::Value(Value::Undefined));
                }
                return Ok(Got::Value(slot.value()));
            }
            cur = obj.proto;
            // A proxy has no prototype link: checked only where the chain ends.
            if cur.is_none() && matches!(obj.kind, ObjKind::Proxy { .. }) {
                return Ok(Got::Proxy(id, key));
            }
        }
        let _ = receiver;
        Ok(Got::Value(Value::Undefined))
    }

    /// `o[key]` for built-ins: accessors read as `undefined`.
    pub(crate) fn get_value(&mut self, o: Value, key: Key) -> Result<Value, Throw> {
        match self.get(o, key)? {
            Got::Value(v) => Ok(v),
            Got::Getter(callee) => {
                // A built-in getter (`size`, `byteLength`, a RegExp flag) runs here and now.
                if let Value::Obj(f) = callee
                    && let ObjKind::Function(Callable::Native { native, data }) = &self.heap.obj(f).kind
                {
                    let (native, data) = (*native, data.clone());
                    if let crate::builtins::Step::Return(v) =
                        crate::builtins::call_native(self, native, o, &[], &data)?
                    {
                        return Ok(v);
                    }
                }
                // In a built-in's run, a program's getter runs by replay (`replay.rs`).
                if self.replaying() {
                    return self.replayed(ReplayedOp::Call { callee, this: o, args: Vec::new() });
                }
                Ok(Value::Undefined)
            }
            Got::Proxy(proxy, key) if self.replaying() => {
                let key = self.key_to_value(key)?;
                let args = vec![Value::Obj(proxy), key, o];
                self.replayed(ReplayedOp::Reflect { method: ReflectMethod::Get, args })
            }
            Got::Proxy(..) => Err(self.proxy_unsupported("this built-in")),
        }
    }

    pub(crate) fn get_named(&mut self, o: Value, name: &str) -> Result<Value, Throw> {
        let atom = self.heap.atoms.intern(name);
        self.get_value(o, Key::Atom(atom))
    }

    /// `o[key] = v`. Returns a setter to call when the property is an accessor, or the proxy
    /// whose `[[Set]]` the write goes on as.
    pub(crate) fn set(&mut self, o: Value, key: Key, v: Value) -> Result<SetFound, Throw> {
        let id = match o {
            Value::Obj(id) => id,
            Value::Undefined | Value::Null => {
                let what = if o == Value::Null { "null" } else { "undefined" };
                let name = match key {
                    Key::Atom(a) => self.heap.atoms.name(a).to_string(),
                    Key::Index(i) => i.to_string(),
                };
                let msg = format!("Cannot set properties of {what} (setting '{name}')");
                return Err(self.make_error(ErrorKind::TypeError, &msg));
            }
            _ => return self.set_on_primitive(o, key),
        };
        let kind = &self.heap.obj(id).kind;
        let (is_typed_array, is_tool) = (
            matches!(kind, ObjKind::TypedArray(_)),
            matches!(kind, ObjKind::Function(Callable::Tool { .. })),
        );
        if is_typed_array && crate::builtins::indexed_set(self, id, key, v)? {
            return Ok(SetFound::Done);
        }
        if is_tool {
            // A namespace's tools are its first properties, before any the program adds.
            self.list_tool_children(id)?;
        }
        // Setter (or proxy) on the chain?
        match self.find_setter(id, key) {
            SetFound::Done => {}
            found => return Ok(found),
        }
        self.define(Value::Obj(id), key, v)?;
        Ok(SetFound::Done)
    }

    /// `[[Set]]` with a primitive receiver, in strict mode: a setter (or proxy) on its
    /// prototype's chain runs with the primitive as `this`; anything else cannot be written (a
    /// string's own index or `length` is read-only, and a primitive holds no new properties),
    /// which strict code reports as a `TypeError`.
    fn set_on_primitive(&mut self, o: Value, key: Key) -> Result<SetFound, Throw> {
        let (proto, kind) = match o {
            Value::Str(_) => (self.realm.string_proto, "string"),
            Value::Number(_) => (self.realm.number_proto, "number"),
            Value::BigInt(_) => (self.realm.bigint_proto, "bigint"),
            Value::Bool(_) => (self.realm.boolean_proto, "boolean"),
            Value::Symbol(_) => (self.realm.symbol_proto, "symbol"),
            _ => return Ok(SetFound::Done),
        };
        let own = match o {
            Value::Str(s) => self.string_own(s, key)?.is_some(),
            _ => false,
        };
        if !own {
            match self.find_setter(proto, key) {
                SetFound::Done => {}
                found => return Ok(found),
            }
        }
        let name = self.key_display(key);
        let shown = match o {
            Value::Symbol(_) => "Symbol()".to_string(),
            Value::Str(s) => {
                let text = self.heap.str(s);
                match text.char_indices().nth(40) {
                    Some((cut, _)) => format!("{}...", &text[..cut]),
                    None => text.to_string(),
                }
            }
            _ => self.to_rust_string(o).unwrap_or_default(),
        };
        let msg = if own {
            format!("Cannot assign to read only property '{name}' of {kind} '{shown}'")
        } else {
            format!("Cannot create property '{name}' on {kind} '{shown}'")
        };
        Err(self.make_error(ErrorKind::TypeError, &msg))
    }

    /// The setter of `key` on the chain from `start`, or the proxy the chain ends at; `Done`
    /// when neither (a data property, or none: the write defines it on `start`).
    pub(crate) fn find_setter(&mut self, start: ObjId, key: Key) -> SetFound {
        // An index key never interned names no property: only a proxy can answer it.
        let atom = match key {
            Key::Atom(a) => Some(a),
            Key::Index(i) => self.heap.atoms.lookup_index(i),
        };
        let mut cur = Some(start);
        let mut steps = 0;
        while let Some(id) = cur {
            steps += 1;
            if steps > MAX_PROTO_CHAIN {
                return SetFound::Done;
            }
            let obj = self.heap.obj(id);
            if let Some(slot) = atom.and_then(|a| obj.props.get(a)) {
                if slot.flags & ACCESSOR != 0
                    && let Value::Obj(acc) = slot.value()
                    && let ObjKind::Accessor { set, .. } = self.heap.obj(acc).kind
                {
                    return SetFound::Setter(set);
                }
                return SetFound::Done;
            }
            cur = obj.proto;
            if cur.is_none() && matches!(obj.kind, ObjKind::Proxy { .. }) {
                return SetFound::Proxy(id);
            }
        }
        SetFound::Done
    }

    /// [`Vm::define`] of a name (object literals' `DefineNamed`): an ordinary object with room for
    /// the slot takes it here; everything else (arrays, exotic objects, sealed objects, a map
    /// that must grow and be charged) goes the general way.
    #[inline]
    pub(crate) fn define_named(&mut self, o: Value, atom: Atom, v: Value) -> Result<(), Throw> {
        if let Value::Obj(id) = o {
            let obj = self.heap.obj_mut(id);
            if matches!(obj.kind, ObjKind::Plain) && obj.props.integrity == 0 {
                match obj.props.find(atom) {
                    Some(index) => {
                        if let Some(slot) = obj.props.slot_mut(index)
                            && slot.flags & READONLY == 0
                        {
                            slot.set_value(v);
                            slot.flags &= !ACCESSOR;
                            return Ok(());
                        }
                    }
                    None => return self.push_new_property(id, atom, v),
                }
            }
        }
        self.define(o, Key::Atom(atom), v)
    }

    /// Defines (or overwrites) an own data property.
    pub(crate) fn define(&mut self, o: Value, key: Key, v: Value) -> Result<(), Throw> {
        let Value::Obj(id) = o else { return Ok(()) };
        if matches!(self.heap.obj(id).kind, ObjKind::TypedArray(_) | ObjKind::Proxy { .. })
            && self.define_exotic(id, key, v)?
        {
            return Ok(());
        }
        let length = self.realm.atoms.length;
        let sealing = self.heap.obj(id).props.integrity;
        if sealing != 0 {
            self.check_integrity(id, key, sealing)?;
        }
        match (&mut self.heap.obj_mut(id).kind, key) {
            (ObjKind::Array(items), Key::Index(i)) => {
                let i = i as usize;
                if i < items.len() {
                    items[i] = v;
                    return Ok(());
                }
                if i > crate::heap::MAX_ARRAY_LENGTH {
                    return Err(self.make_error(ErrorKind::RangeError, "Invalid array length"));
                }
                let grow = i + 1 - items.len();
                self.charge_memory(grow * crate::heap::VALUE_SIZE)?;
                if let ObjKind::Array(items) = &mut self.heap.obj_mut(id).kind {
                    items.resize(i, Value::Undefined);
                    items.push(v);
                }
                return Ok(());
            }
            (ObjKind::Array(_), Key::Atom(a)) if a == length => {
                let n = self.to_number(v)?;
                let Some(n) = as_array_index(n) else {
                    return Err(self.make_error(ErrorKind::RangeError, "Invalid array length"));
                };
                if n as usize > crate::heap::MAX_ARRAY_LENGTH {
                    return Err(self.make_error(ErrorKind::RangeError, "Invalid array length"));
                }
                if let ObjKind::Array(items) = &mut self.heap.obj_mut(id).kind {
                    let n = n as usize;
                    if n > items.len() {
                        let grow = n - items.len();
                        self.charge_memory(grow * crate::heap::VALUE_SIZE)?;
                    }
                    if let ObjKind::Array(items) = &mut self.heap.obj_mut(id).kind {
                        items.resize(n, Value::Undefined);
                    }
                }
                return Ok(());
            }
            _ => {}
        }
        let atom = self.key_atom(key)?;
        // An existing data property keeps its attributes (an accessor becomes data). One
        // lookup: the slot is updated in place.
        if let Some(index) = self.heap.obj(id).props.find(atom) {
            let Some(slot) = self.heap.obj_mut(id).props.slot_mut(index) else { return Ok(()) };
            if slot.flags & READONLY != 0 {
                return Err(self.read_only_error(key));
            }
            slot.set_value(v);
            slot.flags &= !ACCESSOR;
            return Ok(());
        }
        self.push_new_property(id, atom, v)
    }

    /// Adds the data property `atom` (known to be absent) to `id`'s map; growth is charged
    /// before the map grows.
    #[inline]
    fn push_new_property(&mut self, id: ObjId, atom: Atom, v: Value) -> Result<(), Throw> {
        let grow = self.heap.obj(id).props.growth_for_new();
        if grow > 0 {
            // The slots, and the hash index that grows with them.
            let slot = std::mem::size_of::<crate::object::Slot>() + crate::object::INDEX_ENTRY_BYTES;
            self.charge_memory(grow * slot)?;
        }
        let obj = self.heap.obj_mut(id);
        obj.props.reserve_exact(grow);
        obj.props.push_new(atom, v, 0);
        Ok(())
    }

    /// `define` on a typed array (its elements are the buffer's; `true`: done) or a proxy
    /// (defined on through its `defineProperty` trap, `proxy.rs`, never here).
    fn define_exotic(&mut self, id: ObjId, key: Key, v: Value) -> Result<bool, Throw> {
        if let ObjKind::Proxy { .. } = self.heap.obj(id).kind {
            return Err(self.proxy_unsupported("this operation"));
        }
        crate::builtins::indexed_set(self, id, key, v)
    }

    /// The `TypeError` for a write `define` refuses on a sealed, frozen or non-extensible
    /// object (`sealing` is its integrity bits).
    fn check_integrity(&mut self, id: ObjId, key: Key, sealing: u8) -> Result<(), Throw> {
        use crate::object::integrity::{FROZEN_ELEMENTS, NON_EXTENSIBLE};
        let length = self.realm.atoms.length;
        let (exists, is_array) = match (&self.heap.obj(id).kind, key) {
            (ObjKind::Array(items), Key::Index(i)) => ((i as usize) < items.len(), true),
            (ObjKind::Array(_), Key::Atom(a)) if a == length => {
                return if sealing & FROZEN_ELEMENTS != 0 { Err(self.read_only_error(key)) } else { Ok(()) };
            }
            (_, Key::Atom(a)) => (self.heap.obj(id).props.find(a).is_some(), false),
            (_, Key::Index(i)) => {
                let found = self
                    .heap
                    .atoms
                    .lookup_index(i)
                    .is_some_and(|a| self.heap.obj(id).props.find(a).is_some());
                (found, false)
            }
        };
        if !exists && sealing & NON_EXTENSIBLE != 0 {
            let name = self.key_display(key);
            return Err(self.make_error(
                ErrorKind::TypeError,
                &format!("Cannot add property {name}, object is not extensible"),
            ));
        }
        if exists && is_array && sealing & FROZEN_ELEMENTS != 0 {
            return Err(self.read_only_error(key));
        }
        Ok(())
    }

    pub(crate) fn key_display(&self, key: Key) -> String {
        match key {
            Key::Atom(a) if self.heap.atoms.is_symbol(a) => self.symbol_descriptive_string(a),
            Key::Atom(a) => self.heap.atoms.name(a).to_string(),
            Key::Index(i) => i.to_string(),
        }
    }

    /// `TypeError: Cannot assign to read only property 'x' of object`.
    pub(crate) fn read_only_error(&mut self, key: Key) -> Throw {
        let name = self.key_display(key);
        self.make_error(
            ErrorKind::TypeError,
            &format!("Cannot assign to read only property '{name}' of object"),
        )
    }

    /// Defines a hidden (non-enumerable) data property: built-in methods and `constructor`s.
    /// `"@@iterator"` names the well-known symbol `Symbol.iterator`.
    pub(crate) fn define_hidden(&mut self, id: ObjId, name: &str, v: Value) {
        let atom = self.builtin_key(name);
        self.heap.obj_mut(id).props.set(atom, v, HIDDEN);
    }

    /// A constructor's `prototype` (built-in constructors and classes): neither writable,
    /// enumerable nor configurable.
    pub(crate) fn define_constructor_prototype(&mut self, ctor: ObjId, proto: Value) {
        let atom = self.realm.atoms.prototype;
        self.heap.obj_mut(ctor).props.set(atom, proto, READONLY | HIDDEN | FIXED);
    }

    /// The key of a built-in's name: `"@@x"` is the well-known symbol `Symbol.x`, anything else
    /// an interned name.
    pub(crate) fn builtin_key(&mut self, name: &str) -> Atom {
        match name.strip_prefix("@@").and_then(|n| self.realm.symbols.named(n)) {
            Some(symbol) => symbol,
            None => self.heap.atoms.intern(name),
        }
    }

    /// Defines one half of an accessor property.
    pub(crate) fn define_accessor(
        &mut self,
        o: Value,
        key: Key,
        get: Option<Value>,
        set: Option<Value>,
    ) -> Result<(), Throw> {
        let Value::Obj(id) = o else { return Ok(()) };
        let atom = self.key_atom(key)?;
        let existing = self.heap.obj(id).props.get(atom).copied();
        if let Some(slot) = existing
            && slot.flags & ACCESSOR != 0
            && let Value::Obj(acc) = slot.value()
            && let ObjKind::Accessor { get: g, set: s } = &mut self.heap.obj_mut(acc).kind
        {
            if let Some(get) = get {
                *g = get;
            }
            if let Some(set) = set {
                *s = set;
            }
            return Ok(());
        }
        let pair =
            ObjKind::Accessor { get: get.unwrap_or(Value::Undefined), set: set.unwrap_or(Value::Undefined) };
        let acc = self.alloc(pair, None)?;
        self.heap.obj_mut(id).props.set(atom, Value::Obj(acc), ACCESSOR);
        Ok(())
    }

    /// `delete o[key]`.
    pub(crate) fn delete(&mut self, o: Value, key: Key) -> Result<bool, Throw> {
        if let Value::Obj(id) = o {
            self.own_function_props(id)?;
        }
        let Value::Obj(id) = o else {
            if o.is_nullish() {
                return Err(
                    self.make_error(ErrorKind::TypeError, "Cannot convert undefined or null to object")
                );
            }
            return Ok(true);
        };
        if let ObjKind::Proxy { .. } = self.heap.obj(id).kind {
            return Err(self.proxy_unsupported("this operation"));
        }
        // A typed array's elements cannot be deleted (a TypeError, as in strict mode); other
        // numeric keys are never there.
        if let ObjKind::TypedArray(t) = &self.heap.obj(id).kind
            && let Some(present) = crate::builtins::indexed_has(&self.heap, t, key)
        {
            return if present { Err(self.cannot_delete(key)) } else { Ok(true) };
        }
        let sealed = self.heap.obj(id).props.integrity & crate::object::integrity::SEALED_ELEMENTS != 0;
        if let (ObjKind::Array(items), Key::Index(i)) = (&mut self.heap.obj_mut(id).kind, key) {
            if sealed && (i as usize) < items.len() {
                return Err(self.cannot_delete(key));
            }
            if let Some(slot) = items.get_mut(i as usize) {
                *slot = Value::Undefined;
            }
            return Ok(true);
        }
        let atom = self.key_atom(key)?;
        if self.heap.obj(id).props.get(atom).is_some_and(|s| s.flags & FIXED != 0) {
            return Err(self.cannot_delete(key));
        }
        self.heap.obj_mut(id).props.remove(atom);
        Ok(true)
    }

    fn cannot_delete(&mut self, key: Key) -> Throw {
        let name = self.key_display(key);
        self.make_error(ErrorKind::TypeError, &format!("Cannot delete property '{name}' of object"))
    }

    /// The object's own enumerable string keys in JavaScript order: array indices, then integer
    /// keys ascending, then the other keys in insertion order.
    pub(crate) fn own_keys(&mut self, id: ObjId) -> Result<Vec<Key>, Throw> {
        self.own_string_keys(id, false)
    }

    /// The object's own string keys in JavaScript order; `all` includes the non-enumerable ones
    /// (`Object.getOwnPropertyNames`; an array's `length`). Private names are never listed.
    ///
    /// **The list is charged before it is built** (a key per element of a 16 MiB string or a
    /// 32 MiB typed array held hundreds of MiB uncharged), with a step per key.
    pub(crate) fn own_string_keys(&mut self, id: ObjId, all: bool) -> Result<Vec<Key>, Throw> {
        // Out of memory leaves `name` and `length` (or a namespace's tools) unlisted; the next
        // charge reports it.
        if all {
            let _ = self.own_function_props(id);
        } else if matches!(self.heap.obj(id).kind, ObjKind::Function(Callable::Tool { .. })) {
            let _ = self.list_tool_children(id);
        }
        let skip = if all { PRIVATE } else { HIDDEN };
        let obj: &Object = self.heap.obj(id);
        let elements = match &obj.kind {
            ObjKind::Array(items) => items.len(),
            ObjKind::TypedArray(t) => t.len(&self.heap).unwrap_or(0),
            ObjKind::Boxed(Value::Str(s)) => self.heap.string(*s).utf16_len(),
            _ => 0,
        };
        let count = elements.saturating_add(obj.props.slot_count()).saturating_add(1);
        self.charge(Work::Elements(count));
        self.charge_memory(count.saturating_mul(std::mem::size_of::<Key>()))?;
        let obj: &Object = self.heap.obj(id);
        let mut keys = Vec::with_capacity(count);
        match &obj.kind {
            ObjKind::Array(items) => keys.extend((0..items.len() as u32).map(Key::Index)),
            ObjKind::TypedArray(t) => keys.extend(crate::builtins::index_keys(&self.heap, t)),
            ObjKind::Boxed(Value::Str(s)) => {
                let n = self.heap.string(*s).utf16_len() as u32;
                keys.extend((0..n).map(Key::Index));
            }
            _ => {}
        }
        let mut ints: Vec<(u32, Atom)> = Vec::new();
        let mut names: Vec<Atom> = Vec::new();
        for slot in obj.props.iter() {
            if slot.flags & skip != 0 || self.heap.atoms.is_symbol(slot.key) {
                continue;
            }
            match parse_array_index(self.heap.atoms.name(slot.key)) {
                Some(i) => ints.push((i, slot.key)),
                None => names.push(slot.key),
            }
        }
        ints.sort_unstable();
        keys.extend(ints.into_iter().map(|(_, a)| Key::Atom(a)));
        if all && matches!(obj.kind, ObjKind::Array(_) | ObjKind::Boxed(Value::Str(_))) {
            keys.push(Key::Atom(self.realm.atoms.length));
        }
        keys.extend(names.into_iter().map(Key::Atom));
        Ok(keys)
    }

    /// The object's own symbol keys in the order they were added; `all` includes the
    /// non-enumerable ones (`Object.getOwnPropertySymbols`).
    pub(crate) fn own_symbol_keys(&self, id: ObjId, all: bool) -> Vec<Key> {
        let skip = if all { PRIVATE } else { HIDDEN | PRIVATE };
        let atoms = &self.heap.atoms;
        let props = &self.heap.obj(id).props;
        props
            .iter()
            .filter(|s| s.flags & skip == 0 && atoms.is_symbol(s.key))
            .map(|s| Key::Atom(s.key))
            .collect()
    }

    /// Every own key, strings then symbols (`Reflect.ownKeys`); `all` includes the
    /// non-enumerable ones.
    pub(crate) fn own_property_keys(&mut self, id: ObjId, all: bool) -> Result<Vec<Key>, Throw> {
        let mut keys = self.own_string_keys(id, all)?;
        keys.extend(self.own_symbol_keys(id, all));
        Ok(keys)
    }

    /// Copies own enumerable properties of `src` onto `dst`, skipping `excluded` keys (object
    /// spread, `Object.assign`, object rest patterns). When `src` has getters among them, the
    /// copy is a resumable walk that calls them: the returned step, for the caller to run.
    pub(crate) fn copy_data_properties(
        &mut self,
        dst: Value,
        src: Value,
        excluded: &[Value],
    ) -> Result<Option<crate::builtins::Step>, Throw> {
        let id = match src {
            Value::Obj(id) => id,
            Value::Str(s) => {
                let text = self.heap.str(s).to_string();
                for (i, c) in text.chars().enumerate() {
                    let v = self.new_string(c.encode_utf8(&mut [0; 4]))?;
                    self.define(dst, Key::Index(i as u32), v)?;
                }
                return Ok(None);
            }
            _ => return Ok(None),
        };
        let excluded: Vec<Key> = excluded.iter().map(|v| self.to_key(*v)).collect::<Result<_, _>>()?;
        if let ObjKind::Proxy { .. } = self.heap.obj(id).kind {
            // The target's keys (when listing them needs no trap); values read through the proxy.
            let inner = self.proxy_traps_keys_plainly(id)?;
            let mut keys = self.own_property_keys(inner, false)?;
            keys.retain(|key| !excluded.contains(key));
            let mode =
                crate::builtins::prop_walk::WalkMode::Define { target: dst, sources: Default::default() };
            return self.start_prop_walk(src, keys, mode).map(Some);
        }
        let mut keys = self.own_property_keys(id, false)?;
        keys.retain(|key| !excluded.contains(key));
        if self.has_own_accessor(src, &keys) {
            let mode =
                crate::builtins::prop_walk::WalkMode::Define { target: dst, sources: Default::default() };
            return self.start_prop_walk(src, keys, mode).map(Some);
        }
        self.charge(Work::Elements(keys.len()));
        for key in keys {
            let v = self.get_value(src, key)?;
            self.define(dst, key, v)?;
        }
        Ok(None)
    }
}
