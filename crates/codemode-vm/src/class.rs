//! Classes at run time: methods defined non-enumerable, `super(...)`, and private names.
//!
//! A class constructor is a [`Callable::Class`]: `new` reaches it through
//! [`Vm::construct_with`](crate::Vm), which also runs the instance field initializer. Private
//! names (`#x`) are own properties whose key is unique to the declaring class and whose flags
//! carry [`PRIVATE`]: every enumeration skips them (they are also [`HIDDEN`]), and only the
//! private-name instructions here read or write them, with the brand checks JavaScript makes
//! (reading a private name an object lacks is a `TypeError`, not `undefined`).

use codemode_bytecode::{ErrorKind, method_kind};

use crate::Vm;
use crate::call::Throw;
use crate::frame::{Frame, ReturnTo};
use crate::object::{ACCESSOR, HIDDEN, ObjKind, PRIVATE};
use crate::props::{Got, Key};
use crate::value::{Atom, Value};

impl Vm {
    /// Defines a class member on `o` (the prototype or the class): a method (data property) or
    /// one half of an accessor, non-enumerable either way.
    pub(crate) fn define_method(&mut self, o: Value, key: Key, f: Value, kind: u8) -> Result<(), Throw> {
        let Value::Obj(id) = o else { return Ok(()) };
        if let method_kind::PRIVATE_GETTER | method_kind::PRIVATE_SETTER = kind {
            return self.private_define_accessor(id, key, f, kind == method_kind::PRIVATE_GETTER);
        }
        match kind {
            method_kind::GETTER => self.define_accessor(o, key, Some(f), None)?,
            method_kind::SETTER => self.define_accessor(o, key, None, Some(f))?,
            _ => self.define(o, key, f)?,
        }
        let atom = self.key_atom(key)?;
        if let Some(slot) = self.heap.obj(id).props.get(atom).copied() {
            self.heap.obj_mut(id).props.set(atom, slot.value(), slot.flags | HIDDEN);
        }
        Ok(())
    }

    /// `super(...args)` in the derived constructor running in the top frame: constructs the
    /// parent class (the constructor's own prototype) with this frame's `new.target`.
    pub(crate) fn super_call(&mut self, args: &[Value], dst: u16) -> Result<(), Throw> {
        let Some(Frame::Js(f)) = self.frames.last() else { return Ok(()) };
        let (closure, ret) = (f.closure, f.ret);
        let ReturnTo::ConstructDerived { new_target, .. } = ret else {
            return Err(self.make_error(ErrorKind::SyntaxError, "'super' keyword unexpected here"));
        };
        let parent = closure.and_then(|c| self.heap.obj(c).proto);
        let Some(parent) = parent.filter(|p| self.is_constructor(*p)) else {
            return Err(self.make_error(ErrorKind::TypeError, "Super constructor is not a constructor"));
        };
        self.check_call_depth()?;
        let pending = self.construct_with(parent, args, new_target, dst, true)?;
        self.deliver(pending)
    }

    /// The private name `key` (a string value made by the compiler) as an atom.
    fn private_atom(&mut self, key: Value) -> Result<Atom, Throw> {
        let key = self.to_key(key)?;
        self.key_atom(key)
    }

    /// The name as the program wrote it, for messages (`#x`).
    fn private_display(&self, atom: Atom) -> String {
        let name = self.heap.atoms.name(atom);
        name.split('\0').next().unwrap_or(name).to_string()
    }

    /// `o.#x`: `TypeError` when `o` does not have it.
    pub(crate) fn private_get(&mut self, o: Value, key: Value) -> Result<Got, Throw> {
        let atom = self.private_atom(key)?;
        let slot = match o {
            Value::Obj(id) => self.heap.obj(id).props.get(atom).copied().filter(|s| s.flags & PRIVATE != 0),
            _ => None,
        };
        let Some(slot) = slot else {
            let msg = format!(
                "Cannot read private member {} from an object whose class did not declare it",
                self.private_display(atom)
            );
            return Err(self.make_error(ErrorKind::TypeError, &msg));
        };
        if slot.flags & ACCESSOR != 0
            && let Value::Obj(acc) = slot.value()
            && let ObjKind::Accessor { get, .. } = self.heap.obj(acc).kind
        {
            return Ok(Got::Getter(get));
        }
        Ok(Got::Value(slot.value()))
    }

    /// Half of the private accessor `key` on the instance `id` (`get #x() {}`): the getter and
    /// setter of one name share a slot; a name already used otherwise is a `TypeError`.
    fn private_define_accessor(
        &mut self,
        id: crate::value::ObjId,
        key: Key,
        f: Value,
        getter: bool,
    ) -> Result<(), Throw> {
        let atom = self.key_atom(key)?;
        let existing = self.heap.obj(id).props.get(atom).copied();
        match existing {
            Some(slot) if slot.flags & ACCESSOR != 0 && slot.flags & PRIVATE != 0 => {}
            Some(_) => {
                let msg =
                    format!("Cannot initialize {} twice on the same object", self.private_display(atom));
                return Err(self.make_error(ErrorKind::TypeError, &msg));
            }
            None => {}
        }
        let (get, set) = if getter { (Some(f), None) } else { (None, Some(f)) };
        self.define_accessor(Value::Obj(id), Key::Atom(atom), get, set)?;
        let props = &mut self.heap.obj_mut(id).props;
        if let Some(slot) = props.find(atom).and_then(|i| props.slot_mut(i)) {
            slot.flags |= HIDDEN | PRIVATE;
        }
        Ok(())
    }

    /// `o.#x = v`: `TypeError` when `o` does not have it, or when it is an accessor without a
    /// setter. A setter is handed back for the interpreter to call.
    pub(crate) fn private_set(&mut self, o: Value, key: Value, v: Value) -> Result<Option<Value>, Throw> {
        let atom = self.private_atom(key)?;
        if let Value::Obj(id) = o
            && let Some(slot) = self.heap.obj(id).props.get(atom).copied()
            && slot.flags & PRIVATE != 0
        {
            if slot.flags & ACCESSOR == 0 {
                self.heap.obj_mut(id).props.set(atom, v, slot.flags);
                return Ok(None);
            }
            if let Value::Obj(acc) = slot.value()
                && let ObjKind::Accessor { set, .. } = self.heap.obj(acc).kind
                && set != Value::Undefined
            {
                return Ok(Some(set));
            }
            let msg = format!("'{}' was defined without a setter", self.private_display(atom));
            return Err(self.make_error(ErrorKind::TypeError, &msg));
        }
        let msg = format!(
            "Cannot write private member {} to an object whose class did not declare it",
            self.private_display(atom)
        );
        Err(self.make_error(ErrorKind::TypeError, &msg))
    }

    /// Adds the private name to `o` (a field initializer): `TypeError` when it is already there.
    pub(crate) fn private_define(&mut self, o: Value, key: Value, v: Value) -> Result<(), Throw> {
        let atom = self.private_atom(key)?;
        let Value::Obj(id) = o else {
            return Err(
                self.make_error(ErrorKind::TypeError, "Cannot define a private member on a primitive")
            );
        };
        if self.heap.obj(id).props.get(atom).is_some() {
            let msg = format!("Cannot initialize {} twice on the same object", self.private_display(atom));
            return Err(self.make_error(ErrorKind::TypeError, &msg));
        }
        // Through `define` (which charges the growth), then marked private.
        self.define(o, Key::Atom(atom), v)?;
        self.heap.obj_mut(id).props.set(atom, v, HIDDEN | PRIVATE);
        Ok(())
    }

    /// `#x in o`.
    pub(crate) fn private_has(&mut self, o: Value, key: Value) -> Result<bool, Throw> {
        let atom = self.private_atom(key)?;
        let Value::Obj(id) = o else {
            let msg = format!(
                "Cannot use 'in' operator to search for '{}' in a primitive",
                self.private_display(atom)
            );
            return Err(self.make_error(ErrorKind::TypeError, &msg));
        };
        Ok(self.heap.obj(id).props.get(atom).is_some_and(|s| s.flags & PRIVATE != 0))
    }
}
