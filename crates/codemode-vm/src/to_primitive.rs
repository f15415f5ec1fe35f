//! ToPrimitive with user code: an object whose `valueOf`/`toString` is a program function
//! converts by calling it (`` `${money}` ``, `a + b`, `a < b`, `-x` on objects of user classes).
//!
//! The operators' synchronous paths (`convert.rs`) handle every object whose conversion needs no
//! user code. When an operand's conversion does, the instruction becomes a resumable native step
//! ([`Cont::Convert`]): the method is called as an ordinary frame, the primitive it returns
//! replaces the operand, the next operand follows, and then the operator runs on primitives. So
//! conversions obey fuel, call depth and snapshots like any call, and no Rust recursion happens.

use codemode_bytecode::{BinOp, ErrorKind, UnOp};
use serde::{Deserialize, Serialize};

use crate::Vm;
use crate::builtins::{Cont, Step};
use crate::call::Throw;
use crate::frame::ReturnTo;
use crate::object::{Callable, ObjKind};
use crate::value::Value;

/// What to do with the operands once they are primitives.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum ConvertOp {
    Binary(BinOp),
    Unary(UnOp),
    /// ToString (template literals).
    ToString,
    /// ToPropertyKey (computed keys): ToString, except that a symbol stays a symbol.
    ToPropertyKey,
    /// ToNumeric (`x++` on an object: a BigInt `valueOf` result stays a BigInt).
    ToNumeric,
    /// ToNumeric, then add 1 (`true`) or subtract 1 (`++x`/`x--` on an object in a local).
    Step(bool),
    /// ToBoolean of what a `[Symbol.hasInstance]` method returned (`instanceof`).
    Truthy,
}

/// Which method ToPrimitive tries first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Hint {
    /// `valueOf` first (arithmetic, comparison, `+`, `==`).
    Number,
    /// `toString` first (template literals).
    String,
}

/// A conversion in progress: the operands (converted so far), the one being converted, and how
/// many of its methods were tried.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Conversion {
    op: ConvertOp,
    operands: [Value; 2],
    count: u8,
    index: u8,
    tried: u8,
}

impl Conversion {
    pub fn trace(&self, out: &mut Vec<Value>) {
        out.extend_from_slice(&self.operands);
    }

    fn hint(&self) -> Hint {
        match self.op {
            ConvertOp::ToString | ConvertOp::ToPropertyKey => Hint::String,
            _ => Hint::Number,
        }
    }
}

/// `tried` once the operand's `[Symbol.toPrimitive]` method was called: its result is final.
const EXOTIC: u8 = u8::MAX;

fn method_names(hint: Hint) -> [&'static str; 2] {
    match hint {
        Hint::Number => ["valueOf", "toString"],
        Hint::String => ["toString", "valueOf"],
    }
}

impl Vm {
    /// Starts `op` on `operands` (`count` of them) as a resumable conversion when one of them
    /// needs user code to become a primitive; the result goes to `ret`. `Ok(false)`: none does,
    /// the caller converts synchronously.
    pub(crate) fn convert_with_user_code(
        &mut self,
        op: ConvertOp,
        operands: [Value; 2],
        count: u8,
        ret: ReturnTo,
    ) -> Result<bool, Throw> {
        if let ConvertOp::Binary(BinOp::InstanceOf) = op {
            return Ok(self.proxy_instance_of(operands, ret)? || self.has_instance_call(operands, ret)?);
        }
        if let ConvertOp::Binary(BinOp::In) = op {
            return self.proxy_in(operands, ret);
        }
        if let ConvertOp::Binary(BinOp::StrictEq | BinOp::StrictNotEq) = op {
            return Ok(false);
        }
        // `==` between two objects compares identity, and with `null`/`undefined` converts
        // nothing.
        if let ConvertOp::Binary(BinOp::Eq | BinOp::NotEq) = op
            && (matches!(operands, [Value::Obj(_), Value::Obj(_)]) || operands.iter().any(|v| v.is_nullish()))
        {
            return Ok(false);
        }
        let conv = Conversion { op, operands, count, index: 0, tried: 0 };
        match self.next_conversion_call(conv)? {
            None => Ok(false),
            Some(step) => {
                let pending = self.apply_step(step, ret)?;
                self.deliver(pending)?;
                Ok(true)
            }
        }
    }

    /// For built-ins (`String(x)`, `Number(x)`): the step that converts `v` with user code, or
    /// `None` when it converts synchronously.
    pub(crate) fn conversion_step(&mut self, op: ConvertOp, v: Value) -> Result<Option<Step>, Throw> {
        if !matches!(v, Value::Obj(_)) {
            return Ok(None);
        }
        self.next_conversion_call(Conversion {
            op,
            operands: [v, Value::Undefined],
            count: 1,
            index: 0,
            tried: 0,
        })
    }

    /// The call of the next user method `conv` needs, from its current operand on; `None` when
    /// the remaining operands are primitive or convert without user code.
    fn next_conversion_call(&mut self, mut conv: Conversion) -> Result<Option<Step>, Throw> {
        let names = method_names(conv.hint());
        while conv.index < conv.count {
            let v = conv.operands[conv.index as usize];
            if let Value::Obj(_) = v {
                if conv.tried == 0
                    && let Some(step) = self.exotic_to_primitive(&mut conv, v)?
                {
                    return Ok(Some(step));
                }
                let mut native = false;
                while (conv.tried as usize) < names.len() {
                    let name = names[conv.tried as usize];
                    conv.tried += 1;
                    let method = self.get_named(v, name)?;
                    match self.user_method(method) {
                        MethodKind::User => {
                            let cont = Cont::Convert(Box::new(conv));
                            return Ok(Some(Step::Call { callee: method, this: v, args: Vec::new(), cont }));
                        }
                        // `Object.prototype.valueOf` gives the object back: try the next one.
                        MethodKind::IdentityValueOf | MethodKind::NotCallable => continue,
                        // A built-in conversion: the synchronous path does it.
                        MethodKind::Native => {
                            native = true;
                            break;
                        }
                    }
                }
                // No method gave a primitive, or none is callable: OrdinaryToPrimitive throws.
                if !native && conv.tried != EXOTIC {
                    return Err(
                        self.make_error(ErrorKind::TypeError, "Cannot convert object to primitive value")
                    );
                }
            }
            conv.index += 1;
            conv.tried = 0;
        }
        Ok(None)
    }

    /// `v instanceof C` where `C[Symbol.hasInstance]` is a program function: calls it, and its
    /// result's truthiness goes to `ret`. `Ok(false)`: the ordinary prototype walk decides.
    fn has_instance_call(&mut self, [v, c]: [Value; 2], ret: ReturnTo) -> Result<bool, Throw> {
        if !matches!(c, Value::Obj(_)) {
            return Ok(false);
        }
        let method = self.get_value(c, crate::props::Key::Atom(self.realm.symbols.has_instance))?;
        if method.is_nullish() || !matches!(self.user_method(method), MethodKind::User) {
            return Ok(false);
        }
        let conv = Conversion {
            op: ConvertOp::Truthy,
            operands: [Value::Undefined; 2],
            count: 1,
            index: 0,
            tried: EXOTIC,
        };
        let step = Step::Call { callee: method, this: c, args: vec![v], cont: Cont::Convert(Box::new(conv)) };
        let pending = self.apply_step(step, ret)?;
        self.deliver(pending)?;
        Ok(true)
    }

    /// The call of `v[Symbol.toPrimitive](hint)` when it is a program function.
    fn exotic_to_primitive(&mut self, conv: &mut Conversion, v: Value) -> Result<Option<Step>, Throw> {
        let key = crate::props::Key::Atom(self.realm.symbols.to_primitive);
        let method = self.get_value(v, key)?;
        if method.is_nullish() {
            return Ok(None);
        }
        if !self.is_callable(method) {
            return Err(self.make_error(ErrorKind::TypeError, "Symbol.toPrimitive is not a function"));
        }
        if !matches!(self.user_method(method), MethodKind::User) {
            return Ok(None);
        }
        let hint = match conv.op {
            ConvertOp::ToString | ConvertOp::ToPropertyKey => "string",
            ConvertOp::Binary(BinOp::Add | BinOp::Eq | BinOp::NotEq) => "default",
            _ => "number",
        };
        let hint = self.intern_string(hint)?;
        conv.tried = EXOTIC;
        let cont = Cont::Convert(Box::new(conv.clone()));
        Ok(Some(Step::Call { callee: method, this: v, args: vec![hint], cont }))
    }

    /// The operator on the converted operands.
    fn finish_conversion(&mut self, conv: &Conversion) -> Result<Value, Throw> {
        let [a, b] = conv.operands;
        match conv.op {
            ConvertOp::Binary(op) => self.binary(op, a, b),
            ConvertOp::Unary(op) => self.unary(op, a),
            ConvertOp::ToString => self.to_string_value(a),
            ConvertOp::ToPropertyKey => self.to_property_key_value(a),
            ConvertOp::ToNumeric => self.to_numeric(a),
            ConvertOp::Step(up) => self.numeric_step(a, up),
            ConvertOp::Truthy => Ok(Value::Bool(self.to_boolean(a))),
        }
    }

    /// A user method returned `result` for the operand being converted.
    pub(crate) fn resume_conversion(&mut self, mut conv: Conversion, result: Value) -> Result<Step, Throw> {
        if let Value::Obj(_) = result
            && conv.op != ConvertOp::Truthy
        {
            if conv.tried == EXOTIC {
                return Err(self.make_error(ErrorKind::TypeError, "Cannot convert object to primitive value"));
            }
            // An object does not count: try the other method, if it is a function.
            let v = conv.operands[conv.index as usize];
            if let Some(name) = method_names(conv.hint()).get(conv.tried as usize) {
                conv.tried += 1;
                let method = self.get_named(v, name)?;
                if self.is_callable(method) {
                    let cont = Cont::Convert(Box::new(conv));
                    return Ok(Step::Call { callee: method, this: v, args: Vec::new(), cont });
                }
            }
            return Err(self.make_error(ErrorKind::TypeError, "Cannot convert object to primitive value"));
        }
        conv.operands[conv.index as usize] = result;
        conv.index += 1;
        conv.tried = 0;
        match self.next_conversion_call(conv.clone())? {
            Some(step) => Ok(step),
            None => self.finish_conversion(&conv).map(Step::Return),
        }
    }

    /// In a built-in's run (`replay.rs`): ToPrimitive of object `v` when it needs program code
    /// (a program `[Symbol.toPrimitive]`, `valueOf` or `toString`), the methods called by replay;
    /// `None` when the synchronous conversion gives the answer (no program method is involved).
    /// Outside a built-in's run, always `None`.
    pub(crate) fn replay_to_primitive(
        &mut self,
        v: Value,
        prefer_string: bool,
    ) -> Result<Option<Value>, Throw> {
        if !self.replaying() || !matches!(v, Value::Obj(_)) {
            return Ok(None);
        }
        let exotic = self.get_value(v, crate::props::Key::Atom(self.realm.symbols.to_primitive))?;
        if !exotic.is_nullish() {
            if !self.is_callable(exotic) {
                return Err(self.make_error(ErrorKind::TypeError, "Symbol.toPrimitive is not a function"));
            }
            if !matches!(self.user_method(exotic), MethodKind::User) {
                return Ok(None);
            }
            let hint = self.intern_string(if prefer_string { "string" } else { "number" })?;
            let op = crate::replay::ReplayedOp::Call { callee: exotic, this: v, args: vec![hint] };
            let result = self.replayed(op)?;
            if matches!(result, Value::Obj(_)) {
                return Err(self.make_error(ErrorKind::TypeError, "Cannot convert object to primitive value"));
            }
            return Ok(Some(result));
        }
        let names = method_names(if prefer_string { Hint::String } else { Hint::Number });
        for name in names {
            let method = self.get_named(v, name)?;
            match self.user_method(method) {
                MethodKind::User => {
                    let op = crate::replay::ReplayedOp::Call { callee: method, this: v, args: Vec::new() };
                    let result = self.replayed(op)?;
                    if !matches!(result, Value::Obj(_)) {
                        return Ok(Some(result));
                    }
                }
                MethodKind::IdentityValueOf | MethodKind::NotCallable => {}
                // A built-in method: the synchronous conversion is what it computes.
                MethodKind::Native => return Ok(None),
            }
        }
        // Neither method gave a primitive (or neither is callable): OrdinaryToPrimitive throws.
        Err(self.make_error(ErrorKind::TypeError, "Cannot convert object to primitive value"))
    }

    fn user_method(&self, method: Value) -> MethodKind {
        let Value::Obj(id) = method else { return MethodKind::NotCallable };
        match &self.heap.obj(id).kind {
            ObjKind::Function(Callable::Native { native, .. }) => {
                let def = crate::builtins::table().get(native.0 as usize);
                if def.is_some_and(|d| d.owner == "Object.prototype" && d.name == "valueOf") {
                    MethodKind::IdentityValueOf
                } else {
                    MethodKind::Native
                }
            }
            ObjKind::Function(Callable::Tool { .. }) => MethodKind::Native,
            ObjKind::Function(_) => MethodKind::User,
            _ => MethodKind::NotCallable,
        }
    }
}

enum MethodKind {
    User,
    IdentityValueOf,
    Native,
    NotCallable,
}
