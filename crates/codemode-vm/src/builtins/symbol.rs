//! `Symbol`: the constructor, the registry (`Symbol.for`/`keyFor`), the well-known symbols,
//! `Symbol.prototype` and `Object.getOwnPropertySymbols`.
//!
//! A symbol value is an atom that no property name finds (see `heap::Atoms`), so symbol-keyed
//! properties live in the same property maps as named ones.

use codemode_bytecode::ErrorKind;

use super::{NativeDef, Step, arg};
use crate::Vm;
use crate::call::Throw;
use crate::heap::AtomKind;
use crate::object::{FIXED, HIDDEN, ObjKind, READONLY};
use crate::value::{Atom, Value};

pub const DEFS: &[NativeDef] = &[
    NativeDef::ctor("Symbol", 0, symbol_call, symbol_construct),
    NativeDef::new("Symbol", "for", 1, symbol_for),
    NativeDef::new("Symbol", "keyFor", 1, key_for),
    NativeDef::new("Symbol.prototype", "toString", 0, to_string),
    NativeDef::new("Symbol.prototype", "valueOf", 0, value_of),
    NativeDef::new("Symbol.prototype", "get description", 0, description),
    NativeDef::new("Symbol.prototype", "@@toPrimitive", 1, value_of),
    NativeDef::new("Object", "getOwnPropertySymbols", 1, get_own_property_symbols),
];

/// `Symbol(description)`.
fn symbol_call(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let symbol = match arg(args, 0) {
        Value::Undefined => vm.new_symbol("", AtomKind::Symbol)?,
        d => {
            let text = vm.to_rust_string(d)?;
            vm.new_symbol(&text, AtomKind::DescribedSymbol)?
        }
    };
    Ok(Step::Return(Value::Symbol(symbol)))
}

fn symbol_construct(vm: &mut Vm, _args: &[Value]) -> Result<Step, Throw> {
    Err(vm.make_error(ErrorKind::TypeError, "Symbol is not a constructor"))
}

/// `Symbol.for(key)`: the registered symbol of `key`, made on first use.
fn symbol_for(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let key = vm.to_rust_string(arg(args, 0))?;
    let symbol = match vm.heap.atoms.registered(&key) {
        Some(symbol) => symbol,
        None => vm.new_symbol(&key, AtomKind::RegisteredSymbol)?,
    };
    Ok(Step::Return(Value::Symbol(symbol)))
}

fn key_for(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let Value::Symbol(symbol) = arg(args, 0) else {
        let desc = vm.describe_for_error(arg(args, 0));
        return Err(vm.make_error(ErrorKind::TypeError, &format!("{desc} is not a symbol")));
    };
    if vm.heap.atoms.kind(symbol) != AtomKind::RegisteredSymbol {
        return Ok(Step::Return(Value::Undefined));
    }
    let key = vm.heap.atoms.name(symbol).to_string();
    Ok(Step::Return(vm.new_string(&key)?))
}

/// The symbol `this` is or wraps (`thisSymbolValue`).
fn this_symbol(vm: &mut Vm, this: Value, method: &str) -> Result<Atom, Throw> {
    match this {
        Value::Symbol(symbol) => return Ok(symbol),
        Value::Obj(id) => {
            if let ObjKind::Boxed(Value::Symbol(symbol)) = vm.heap.obj(id).kind {
                return Ok(symbol);
            }
        }
        _ => {}
    }
    let msg = format!("Symbol.prototype.{method} requires that 'this' be a Symbol");
    Err(vm.make_error(ErrorKind::TypeError, &msg))
}

fn to_string(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let symbol = this_symbol(vm, this, "toString")?;
    let text = vm.symbol_descriptive_string(symbol);
    Ok(Step::Return(vm.new_string(&text)?))
}

fn value_of(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    Ok(Step::Return(Value::Symbol(this_symbol(vm, this, "valueOf")?)))
}

fn description(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let symbol = this_symbol(vm, this, "description")?;
    if vm.heap.atoms.kind(symbol) == AtomKind::Symbol {
        return Ok(Step::Return(Value::Undefined));
    }
    let text = vm.heap.atoms.name(symbol).to_string();
    Ok(Step::Return(vm.new_string(&text)?))
}

fn get_own_property_symbols(
    vm: &mut Vm,
    _this: Value,
    args: &[Value],
    _data: &[Value],
) -> Result<Step, Throw> {
    if let Some(step) = vm.proxy_keys_start(arg(args, 0), crate::proxy_keys::KeysMode::Symbols)? {
        return Ok(step);
    }
    let keys = match arg(args, 0) {
        Value::Obj(id) => vm.own_symbol_keys(id, true),
        Value::Undefined | Value::Null => {
            return Err(vm.make_error(ErrorKind::TypeError, "Cannot convert undefined or null to object"));
        }
        _ => Vec::new(),
    };
    vm.charge(crate::meter::Work::Elements(keys.len()));
    let items: Vec<Value> = keys
        .into_iter()
        .map(|k| match k {
            crate::props::Key::Atom(a) => Value::Symbol(a),
            crate::props::Key::Index(_) => Value::Undefined,
        })
        .collect();
    Ok(Step::Return(vm.new_array(items)?))
}

/// The well-known symbols as constants of `Symbol`, and `Symbol.prototype[@@toStringTag]`.
pub(crate) fn install_values(vm: &mut Vm) -> Result<(), Throw> {
    let global = vm.realm.global;
    let name = vm.heap.atoms.intern("Symbol");
    let ctor = vm.get_value(Value::Obj(global), crate::props::Key::Atom(name))?;
    let Value::Obj(ctor) = ctor else { return Ok(()) };
    for (name, symbol) in vm.realm.symbols.all() {
        let atom = vm.heap.atoms.intern(name);
        vm.heap.obj_mut(ctor).props.set(atom, Value::Symbol(symbol), READONLY | HIDDEN | FIXED);
    }
    let r = &vm.realm;
    let tagged = [
        (r.symbol_proto, "Symbol"),
        (r.map_proto, "Map"),
        (r.set_proto, "Set"),
        (r.promise_proto, "Promise"),
        (r.generator_proto, "Generator"),
        (r.async_generator_proto, "AsyncGenerator"),
        (r.iterator_proto, "Iterator"),
        (r.iterator_protos[0], "Iterator Helper"),
        (r.weak_protos[0], "WeakMap"),
        (r.weak_protos[1], "WeakSet"),
        (r.weak_protos[2], "WeakRef"),
        (r.weak_protos[3], "FinalizationRegistry"),
        (r.disposable_protos[0], "DisposableStack"),
        (r.disposable_protos[1], "AsyncDisposableStack"),
    ];
    for (owner, name) in tagged {
        set_tag(vm, owner, name)?;
    }
    // `Array.prototype[Symbol.iterator] === Array.prototype.values`, and so on.
    let r = &vm.realm;
    let aliases = [
        (r.array_proto, "values"),
        (r.map_proto, "entries"),
        (r.set_proto, "values"),
        (r.binary.typed_array, "values"),
    ];
    let iterator = r.symbols.iterator;
    let aliases = aliases.into_iter().map(|(owner, name)| (owner, name, iterator)).chain([
        (r.disposable_protos[0], "dispose", r.symbols.dispose),
        (r.disposable_protos[1], "disposeAsync", r.symbols.async_dispose),
    ]);
    for (owner, name, symbol) in aliases.collect::<Vec<_>>() {
        let atom = vm.heap.atoms.intern(name);
        if let Some(slot) = vm.heap.obj(owner).props.get(atom).copied() {
            vm.heap.obj_mut(owner).props.set(symbol, slot.value(), HIDDEN);
        }
    }
    for namespace in ["Math", "JSON", "Reflect"] {
        let owner = vm.owner_object(namespace)?;
        set_tag(vm, owner, namespace)?;
    }
    Ok(())
}

/// `owner[@@toStringTag] = name` (non-writable, non-enumerable, configurable).
fn set_tag(vm: &mut Vm, owner: crate::value::ObjId, name: &str) -> Result<(), Throw> {
    let tag = vm.new_string(name)?;
    let key = vm.realm.symbols.to_string_tag;
    vm.heap.obj_mut(owner).props.set(key, tag, READONLY | HIDDEN);
    Ok(())
}
