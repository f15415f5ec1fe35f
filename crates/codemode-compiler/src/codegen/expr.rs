//! Expressions.
//!
//! `expr(e, dst)` leaves the value in `dst`; `expr_any(e)` may instead return the register a local
//! already lives in (no copy), which is safe as long as nothing evaluated afterwards can write that
//! local — see [`writes_locals`]; `expr_discard(e)` evaluates for effect only.

use codemode_ir::{
    ArrayElem, BinaryOp, Expr, ExprKind, LogicalOp, ObjectProp, Pattern, PropKey, Property, UpdateOp, VarRef,
};

use super::{CompileError, FnCompiler};
use crate::bytecode::{BinOp, Constant, ErrorKind, Op, Reg, method_kind};

impl<'a> FnCompiler<'a> {
    /// Evaluates `e` into any register, preferring the one a local already lives in.
    pub(super) fn expr_any(&mut self, e: &'a Expr) -> Result<Reg, CompileError> {
        if let ExprKind::Var { var: VarRef::Local(id), check_tdz: false } = &e.kind
            && !self.is_captured(*id)
        {
            return Ok(self.var_reg(*id));
        }
        let r = self.alloc_reg()?;
        self.expr(e, r)?;
        Ok(r)
    }

    /// Evaluates `e` for its effects.
    pub(super) fn expr_discard(&mut self, e: &'a Expr) -> Result<(), CompileError> {
        self.mark(e.span);
        let mark = self.temp_mark();
        match &e.kind {
            ExprKind::Update { op, target, .. } => {
                if let Pattern::Var(VarRef::Local(id)) = &**target
                    && !self.is_captured(*id)
                {
                    let reg = self.var_reg(*id);
                    self.emit(match op {
                        UpdateOp::Increment => Op::Inc { dst: reg, src: reg },
                        UpdateOp::Decrement => Op::Dec { dst: reg, src: reg },
                    })?;
                    return Ok(());
                }
                let r = self.alloc_reg()?;
                self.expr(e, r)?;
            }
            ExprKind::Assign { op, target, value } => {
                if let Pattern::Var(VarRef::Local(id)) = &**target
                    && !self.is_captured(*id)
                {
                    let reg = self.var_reg(*id);
                    match op {
                        None => {
                            if super::stmt::mentions_var(value, *id, 0) {
                                let r = self.alloc_reg()?;
                                self.expr(value, r)?;
                                self.emit(Op::Move { dst: reg, src: r })?;
                            } else {
                                self.expr(value, reg)?;
                            }
                        }
                        Some(op) => match value.kind {
                            ExprKind::Number(n) if let Some(int) = small_int(n) => {
                                self.emit(Op::BinaryInt { op: *op, dst: reg, a: reg, int })?;
                            }
                            _ => {
                                let v = self.expr_any(value)?;
                                self.emit(Op::Binary { op: *op, dst: reg, a: reg, b: v })?;
                            }
                        },
                    }
                    self.free_to(mark);
                    return Ok(());
                }
                let r = self.alloc_reg()?;
                self.expr(e, r)?;
            }
            _ => {
                let r = self.alloc_reg()?;
                self.expr(e, r)?;
            }
        }
        self.free_to(mark);
        Ok(())
    }

    /// Evaluates `e` into `dst`.
    pub(super) fn expr(&mut self, e: &'a Expr, dst: Reg) -> Result<(), CompileError> {
        self.enter()?;
        self.mark(e.span);
        let mark = self.temp_mark();
        let result = self.expr_inner(e, dst);
        self.free_to(mark);
        self.leave();
        result
    }

    fn expr_inner(&mut self, e: &'a Expr, dst: Reg) -> Result<(), CompileError> {
        match &e.kind {
            ExprKind::Undefined => {
                self.emit(Op::LoadUndef { dst })?;
            }
            ExprKind::Null => {
                self.emit(Op::LoadNull { dst })?;
            }
            ExprKind::Bool(true) => {
                self.emit(Op::LoadTrue { dst })?;
            }
            ExprKind::Bool(false) => {
                self.emit(Op::LoadFalse { dst })?;
            }
            ExprKind::Number(n) => self.load_number(*n, dst)?,
            ExprKind::String(s) => {
                let k = self.string_const(s);
                self.emit(Op::LoadConst { dst, k })?;
            }
            ExprKind::BigInt(digits) => {
                let k = self.constants.len() as u32;
                self.constants.push(Constant::BigInt(digits.clone()));
                self.emit(Op::LoadConst { dst, k })?;
            }
            ExprKind::Regex { pattern, flags } => {
                let k = self.constants.len() as u32;
                self.constants.push(Constant::Regex { pattern: pattern.clone(), flags: flags.clone() });
                self.emit(Op::Regex { dst, k })?;
            }
            ExprKind::Template { quasis, exprs } => self.template(quasis, exprs, dst)?,
            ExprKind::Var { var, check_tdz } => self.load_var(var, *check_tdz, dst)?,
            ExprKind::This => {
                self.emit(Op::LoadThis { dst })?;
            }
            ExprKind::CurrentFunction => {
                self.emit(Op::LoadCallee { dst })?;
            }
            ExprKind::Array(items) => {
                self.emit(Op::NewArray { dst })?;
                // `dst` may be a binding's register below the temporaries: free to a mark.
                let mark = self.temp_mark();
                for item in items {
                    match item {
                        ArrayElem::Item(x) => {
                            let r = self.expr_any(x)?;
                            self.emit(Op::ArrayPush { arr: dst, src: r })?;
                        }
                        ArrayElem::Spread(x) => {
                            let r = self.expr_any(x)?;
                            self.emit(Op::ArraySpread { arr: dst, src: r })?;
                        }
                        ArrayElem::Hole => {
                            self.emit(Op::ArrayHole { arr: dst })?;
                        }
                    }
                    self.free_to(mark);
                }
            }
            ExprKind::Object(props) => self.object_literal(props, dst)?,
            ExprKind::Function(fid) => {
                self.note_child(*fid)?;
                self.emit(Op::Closure { dst, func: fid.0 })?;
            }
            ExprKind::Unary { op, arg } => {
                let src = self.expr_any(arg)?;
                let op = *op;
                self.emit(Op::Unary { op, dst, src })?;
            }
            ExprKind::TypeofGlobal(name) => {
                let k = self.string_const(name);
                self.emit(Op::TypeofGlobal { dst, k })?;
            }
            ExprKind::Update { op, prefix, target } => self.update(*op, *prefix, target, dst)?,
            ExprKind::Binary { op, left, right } => {
                // A small integer on the right needs no register of its own.
                if let ExprKind::Number(n) = right.kind
                    && let Some(int) = small_int(n)
                    && !matches!(op, BinOp::In | BinOp::InstanceOf)
                {
                    let a = self.expr_any(left)?;
                    self.mark(e.span);
                    self.emit(Op::BinaryInt { op: *op, dst, a, int })?;
                    return Ok(());
                }
                let a = if writes_locals(right, 0) {
                    let t = self.alloc_reg()?;
                    self.expr(left, t)?;
                    t
                } else {
                    self.expr_any(left)?
                };
                let b = self.expr_any(right)?;
                self.mark(e.span);
                self.emit(Op::Binary { op: *op, dst, a, b })?;
            }
            ExprKind::Logical { op, left, right } => {
                self.expr(left, dst)?;
                let skip = self.emit(short_circuit(*op, dst))?;
                self.expr(right, dst)?;
                self.patch_here(skip);
            }
            ExprKind::Conditional { test, then, otherwise } => {
                let to_else = self.jump_unless(test)?;
                self.expr(then, dst)?;
                let to_end = self.emit(Op::Jump { target: 0 })?;
                self.patch_here(to_else);
                self.expr(otherwise, dst)?;
                self.patch_here(to_end);
            }
            ExprKind::Assign { op, target, value } => self.assign(*op, target, value, dst)?,
            ExprKind::LogicalAssign { op, target, value } => {
                // Read the target, short-circuit, else evaluate and store.
                let (obj, key) = self.target_ref(target)?;
                self.read_target(target, obj, key, dst)?;
                let skip = self.emit(short_circuit(*op, dst))?;
                self.expr(value, dst)?;
                self.write_target(target, obj, key, dst)?;
                self.patch_here(skip);
            }
            ExprKind::Member { object, property, optional } => {
                // `o[o = k]`: the key may overwrite the object's binding; read it first.
                let obj = match &**property {
                    Property::Computed(key) if writes_locals(key, 0) => {
                        let t = self.alloc_reg()?;
                        self.expr(object, t)?;
                        t
                    }
                    _ => self.expr_any(object)?,
                };
                if *optional {
                    self.optional_exit(obj)?;
                }
                self.mark(e.span);
                self.get_property(obj, property, dst)?;
            }
            ExprKind::Call { callee, args, optional } => self.call(callee, args, *optional, dst, e)?,
            ExprKind::New { callee, args } => {
                let f = self.alloc_reg()?;
                self.expr(callee, f)?;
                if args.iter().any(|a| matches!(a, ArrayElem::Spread(_))) {
                    let arr = self.alloc_reg()?;
                    self.args_array(args, arr)?;
                    self.mark(e.span);
                    self.emit(Op::NewSpread { dst, callee: f, arr })?;
                } else {
                    let (first, argc) = self.args_in_registers(args)?;
                    self.mark(e.span);
                    self.emit(Op::New { dst, callee: f, args: first, argc })?;
                }
            }
            ExprKind::OptionalChain(inner) => {
                self.optional_exits.push(Vec::new());
                let result = self.expr(inner, dst);
                let exits = self.optional_exits.pop().unwrap_or_default();
                result?;
                if !exits.is_empty() {
                    let to_end = self.emit(Op::Jump { target: 0 })?;
                    for j in exits {
                        self.patch_here(j);
                    }
                    self.emit(Op::LoadUndef { dst })?;
                    self.patch_here(to_end);
                }
            }
            ExprKind::Sequence(items) => {
                let n = items.len();
                for (i, item) in items.iter().enumerate() {
                    if i + 1 == n {
                        self.expr(item, dst)?;
                    } else {
                        self.expr_discard(item)?;
                    }
                }
                if n == 0 {
                    self.emit(Op::LoadUndef { dst })?;
                }
            }
            ExprKind::Await(arg) => {
                let src = self.expr_any(arg)?;
                self.mark(e.span);
                self.emit(Op::Await { dst, src })?;
            }
            ExprKind::Yield { arg, delegate: false } => self.yield_expr(arg.as_deref(), dst)?,
            ExprKind::Yield { arg: Some(arg), delegate: true } => self.yield_star(arg, dst)?,
            ExprKind::Yield { arg: None, delegate: true } => {
                return Err(self.error("yield* needs an operand"));
            }
            ExprKind::Delete { object, property } => {
                let obj = self.expr_any(object)?;
                let key = self.property_key(property)?;
                self.emit(Op::Delete { dst, obj, key })?;
            }
            ExprKind::ThrowConstAssign { .. } => {
                let k = self.string_const("Assignment to constant variable.");
                self.emit(Op::ThrowError { kind: ErrorKind::TypeError, k })?;
            }
            ExprKind::Class(class) => self.class(class, dst)?,
            ExprKind::SuperCall(args) => {
                if args.iter().any(|a| matches!(a, ArrayElem::Spread(_))) {
                    let arr = self.alloc_reg()?;
                    self.args_array(args, arr)?;
                    self.mark(e.span);
                    self.emit(Op::SuperCallSpread { dst, arr })?;
                } else {
                    let (first, argc) = self.args_in_registers(args)?;
                    self.mark(e.span);
                    self.emit(Op::SuperCall { dst, args: first, argc })?;
                }
            }
            ExprKind::SuperMember { home, property } => {
                let home = self.expr_any(home)?;
                let key = self.property_key(property)?;
                self.mark(e.span);
                self.emit(Op::GetSuper { dst, home, key })?;
            }
            ExprKind::PrivateIn { name, object } => {
                let obj = self.expr_any(object)?;
                let key = self.alloc_reg()?;
                let k = self.string_const(name);
                self.emit(Op::LoadConst { dst: key, k })?;
                self.emit(Op::HasPrivate { dst, obj, key })?;
            }
            ExprKind::DefineField { key, value, kind } => {
                let obj = self.alloc_reg()?;
                self.emit(Op::LoadThis { dst: obj })?;
                let kr = self.property_key(key)?;
                self.expr(value, dst)?;
                self.mark(e.span);
                let accessor = match kind {
                    codemode_ir::MethodKind::Method => None,
                    codemode_ir::MethodKind::Getter => Some(method_kind::PRIVATE_GETTER),
                    codemode_ir::MethodKind::Setter => Some(method_kind::PRIVATE_SETTER),
                };
                if let Some(kind) = accessor {
                    self.emit(Op::DefineMethod { obj, key: kr, func: dst, kind })?;
                } else if matches!(&**key, Property::Private(_)) {
                    self.emit(Op::DefinePrivate { obj, key: kr, src: dst })?;
                } else {
                    self.emit(Op::DefineIndex { obj, key: kr, src: dst })?;
                }
            }
            ExprKind::NewTarget => {
                self.emit(Op::NewTarget { dst })?;
            }
            ExprKind::Internal(name) => {
                let k = self.string_const(name);
                self.emit(Op::LoadInternal { dst, k })?;
            }
            ExprKind::PropertyKey(arg) => {
                self.expr(arg, dst)?;
                self.emit(Op::ToPropertyKey { dst, src: dst })?;
            }
        }
        Ok(())
    }

    /// `class { .. }`: the class, its methods, then the bindings that see it and the static
    /// initializer.
    fn class(&mut self, class: &'a codemode_ir::ClassDef, dst: Reg) -> Result<(), CompileError> {
        let parent = self.alloc_reg()?;
        match &class.parent {
            Some(p) => self.expr(p, parent)?,
            None => {
                self.emit(Op::LoadUninit { dst: parent })?;
            }
        }
        let fields = self.alloc_reg()?;
        match class.fields {
            Some(fid) => {
                self.note_child(fid)?;
                self.emit(Op::Closure { dst: fields, func: fid.0 })?;
            }
            None => {
                self.emit(Op::LoadUndef { dst: fields })?;
            }
        }
        self.note_child(class.constructor)?;
        // Build into a temporary: `dst` may be a binding members must not see yet.
        let c = self.alloc_reg()?;
        self.emit(Op::Class { dst: c, func: class.constructor.0, parent, fields })?;
        for var in &class.bindings {
            self.store_var(var, c, true)?;
        }
        let proto = self.alloc_reg()?;
        let k = self.string_const("prototype");
        self.emit(Op::GetNamed { dst: proto, obj: c, k })?;
        for member in &class.members {
            let mark = self.temp_mark();
            let kr = self.alloc_reg()?;
            self.literal_key(&member.key, kr)?;
            let f = self.alloc_reg()?;
            self.note_child(member.function)?;
            self.emit(Op::Closure { dst: f, func: member.function.0 })?;
            let kind = match member.kind {
                codemode_ir::MethodKind::Method => crate::bytecode::method_kind::METHOD,
                codemode_ir::MethodKind::Getter => crate::bytecode::method_kind::GETTER,
                codemode_ir::MethodKind::Setter => crate::bytecode::method_kind::SETTER,
            };
            let obj = if member.is_static { c } else { proto };
            self.emit(Op::DefineMethod { obj, key: kr, func: f, kind })?;
            self.free_to(mark);
        }
        for &fid in &class.static_init {
            let mark = self.temp_mark();
            let f = self.alloc_reg()?;
            self.note_child(fid)?;
            self.emit(Op::Closure { dst: f, func: fid.0 })?;
            let ignored = self.alloc_reg()?;
            self.emit(Op::Call { dst: ignored, callee: f, this: c, args: ignored, argc: 0 })?;
            self.free_to(mark);
        }
        self.emit(Op::Move { dst, src: c })?;
        Ok(())
    }

    fn load_number(&mut self, n: f64, dst: Reg) -> Result<(), CompileError> {
        if let Some(value) = small_int(n) {
            self.emit(Op::LoadInt { dst, value })?;
        } else {
            let k = self.number_const(n);
            self.emit(Op::LoadConst { dst, k })?;
        }
        Ok(())
    }

    fn object_literal(&mut self, props: &'a [ObjectProp], dst: Reg) -> Result<(), CompileError> {
        self.emit(Op::NewObject { dst })?;
        for prop in props {
            let mark = self.temp_mark();
            match prop {
                ObjectProp::KeyValue { key: PropKey::Named(name), value } => {
                    let v = self.expr_any(value)?;
                    let k = self.string_const(name);
                    self.emit(Op::DefineNamed { obj: dst, k, src: v })?;
                }
                ObjectProp::KeyValue { key: PropKey::Computed(key), value } => {
                    let kr = self.alloc_reg()?;
                    self.expr(key, kr)?;
                    self.emit(Op::ToPropertyKey { dst: kr, src: kr })?;
                    let v = self.expr_any(value)?;
                    self.emit(Op::DefineIndex { obj: dst, key: kr, src: v })?;
                }
                ObjectProp::Spread(x) => {
                    let v = self.expr_any(x)?;
                    self.emit(Op::ObjectSpread { obj: dst, src: v })?;
                }
                ObjectProp::Proto(x) => {
                    let v = self.expr_any(x)?;
                    self.emit(Op::SetProto { obj: dst, src: v })?;
                }
                ObjectProp::Getter { key, function } | ObjectProp::Setter { key, function } => {
                    let kr = self.alloc_reg()?;
                    self.literal_key(key, kr)?;
                    let f = self.alloc_reg()?;
                    self.note_child(*function)?;
                    self.emit(Op::Closure { dst: f, func: function.0 })?;
                    if matches!(prop, ObjectProp::Getter { .. }) {
                        self.emit(Op::DefineGetter { obj: dst, key: kr, func: f })?;
                    } else {
                        self.emit(Op::DefineSetter { obj: dst, key: kr, func: f })?;
                    }
                }
            }
            self.free_to(mark);
        }
        Ok(())
    }

    /// Puts an object literal's or class member's key into `kr`: a string constant, or the
    /// computed key converted with ToPropertyKey.
    fn literal_key(&mut self, key: &'a PropKey, kr: Reg) -> Result<(), CompileError> {
        match key {
            PropKey::Named(name) => {
                let k = self.string_const(name);
                self.emit(Op::LoadConst { dst: kr, k })?;
            }
            PropKey::Computed(key) => {
                self.expr(key, kr)?;
                self.emit(Op::ToPropertyKey { dst: kr, src: kr })?;
            }
        }
        Ok(())
    }

    /// Emits a jump (to be patched) taken when `test` is falsy. A comparison compiles to one
    /// fused instruction instead of a comparison into a register and a test of it.
    pub(super) fn jump_unless(&mut self, test: &'a Expr) -> Result<usize, CompileError> {
        if let ExprKind::Binary { op, left, right } = &test.kind
            && matches!(
                op,
                BinOp::Lt
                    | BinOp::LtEq
                    | BinOp::Gt
                    | BinOp::GtEq
                    | BinOp::Eq
                    | BinOp::NotEq
                    | BinOp::StrictEq
                    | BinOp::StrictNotEq
            )
        {
            if let ExprKind::Number(n) = right.kind
                && let Some(int) = small_int(n)
            {
                let a = self.expr_any(left)?;
                self.mark(test.span);
                return self.emit(Op::JumpUnlessCompareInt { op: *op, a, int, target: 0 });
            }
            let a = if writes_locals(right, 0) {
                let t = self.alloc_reg()?;
                self.expr(left, t)?;
                t
            } else {
                self.expr_any(left)?
            };
            let b = self.expr_any(right)?;
            self.mark(test.span);
            return self.emit(Op::JumpUnlessCompare { op: *op, a, b, target: 0 });
        }
        let t = self.expr_any(test)?;
        self.emit(Op::JumpIfFalse { src: t, target: 0 })
    }

    /// Registers the jump that leaves the innermost optional chain when `obj` is nullish.
    fn optional_exit(&mut self, obj: Reg) -> Result<(), CompileError> {
        let j = self.emit(Op::JumpIfNullish { src: obj, target: 0 })?;
        match self.optional_exits.last_mut() {
            Some(exits) => exits.push(j),
            // The lowering always wraps optional links in a chain; without one, fall through.
            None => self.patch_here(j),
        }
        Ok(())
    }

    fn get_property(&mut self, obj: Reg, property: &'a Property, dst: Reg) -> Result<(), CompileError> {
        match property {
            Property::Named(name) => {
                let k = self.string_const(name);
                self.emit(Op::GetNamed { dst, obj, k })?;
            }
            Property::Computed(key) => {
                let key = self.expr_any(key)?;
                self.emit(Op::GetIndex { dst, obj, key })?;
            }
            Property::Private(name) => {
                let key = self.alloc_reg()?;
                let k = self.string_const(name);
                self.emit(Op::LoadConst { dst: key, k })?;
                self.emit(Op::GetPrivate { dst, obj, key })?;
            }
        }
        Ok(())
    }

    /// Throws a TypeError with `message` when register `obj` is `null` or `undefined` (before a
    /// computed key is converted, which may run program code).
    fn require_object_coercible(&mut self, obj: Reg, message: &str) -> Result<(), CompileError> {
        let ok = self.emit(Op::JumpIfNotNullish { src: obj, target: 0 })?;
        let k = self.string_const(message);
        self.emit(Op::ThrowError { kind: ErrorKind::TypeError, k })?;
        self.patch_here(ok);
        Ok(())
    }

    /// A register holding the property key (a string constant for named properties).
    fn property_key(&mut self, property: &'a Property) -> Result<Reg, CompileError> {
        match property {
            Property::Named(name) | Property::Private(name) => {
                let r = self.alloc_reg()?;
                let k = self.string_const(name);
                self.emit(Op::LoadConst { dst: r, k })?;
                Ok(r)
            }
            Property::Computed(key) => {
                let r = self.alloc_reg()?;
                self.expr(key, r)?;
                self.emit(Op::ToPropertyKey { dst: r, src: r })?;
                Ok(r)
            }
        }
    }

    /// Puts the arguments in consecutive fresh registers; returns the first and the count.
    fn args_in_registers(&mut self, args: &'a [ArrayElem]) -> Result<(Reg, u16), CompileError> {
        let argc = u16::try_from(args.len()).map_err(|_| self.error("too many arguments"))?;
        let regs = self.alloc_regs(argc)?;
        let first = regs.start;
        for (arg, r) in args.iter().zip(regs) {
            match arg {
                ArrayElem::Item(x) => self.expr(x, r)?,
                _ => {
                    self.emit(Op::LoadUndef { dst: r })?;
                }
            }
        }
        Ok((first, argc))
    }

    /// Builds an array of the arguments (for calls with spread).
    fn args_array(&mut self, args: &'a [ArrayElem], arr: Reg) -> Result<(), CompileError> {
        self.emit(Op::NewArray { dst: arr })?;
        for arg in args {
            let mark = self.temp_mark();
            match arg {
                ArrayElem::Item(x) => {
                    let r = self.expr_any(x)?;
                    self.emit(Op::ArrayPush { arr, src: r })?;
                }
                ArrayElem::Spread(x) => {
                    let r = self.expr_any(x)?;
                    self.emit(Op::ArraySpread { arr, src: r })?;
                }
                ArrayElem::Hole => {
                    self.emit(Op::ArrayHole { arr })?;
                }
            }
            self.free_to(mark);
        }
        Ok(())
    }

    fn call(
        &mut self,
        callee: &'a Expr,
        args: &'a [ArrayElem],
        optional: bool,
        dst: Reg,
        call: &'a Expr,
    ) -> Result<(), CompileError> {
        let spread = args.iter().any(|a| matches!(a, ArrayElem::Spread(_)));
        let plain = !spread && !matches!(callee.kind, ExprKind::SuperMember { .. } | ExprKind::Member { .. });
        if plain && !optional && self.is_self_reference(callee) {
            // A recursive function calling itself by its own name: the running closure is the
            // callee, known without a register.
            let (first, argc) = self.args_in_registers(args)?;
            self.mark(call.span);
            let at = self.emit(Op::CallSelf { dst, args: first, argc })?;
            self.name_callee(at, callee);
            return Ok(());
        }
        if plain {
            // `f(x)`: `this` is undefined (`CallPlain` needs no register for it), and a local
            // callee is read in place unless an argument could assign it first.
            let f = if args.iter().any(|a| matches!(a, ArrayElem::Item(x) if writes_locals(x, 0))) {
                let f = self.alloc_reg()?;
                self.expr(callee, f)?;
                f
            } else {
                self.expr_any(callee)?
            };
            if optional {
                self.optional_exit(f)?;
            }
            let (first, argc) = self.args_in_registers(args)?;
            self.mark(call.span);
            let at = self.emit(Op::CallPlain { dst, callee: f, args: first, argc })?;
            self.name_callee(at, callee);
            return Ok(());
        }
        let f = self.alloc_reg()?;
        let this = self.alloc_reg()?;
        match &callee.kind {
            ExprKind::SuperMember { .. } => {
                self.emit(Op::LoadThis { dst: this })?;
                self.expr(callee, f)?;
            }
            ExprKind::Member { object, property, optional: member_optional } => {
                self.expr(object, this)?;
                if *member_optional {
                    self.optional_exit(this)?;
                }
                self.mark(callee.span);
                self.get_property(this, property, f)?;
            }
            _ => {
                self.expr(callee, f)?;
                self.emit(Op::LoadUndef { dst: this })?;
            }
        }
        if optional {
            self.optional_exit(f)?;
        }
        if spread {
            let arr = self.alloc_reg()?;
            self.args_array(args, arr)?;
            self.mark(call.span);
            let at = self.emit(Op::CallSpread { dst, callee: f, this, arr })?;
            self.name_callee(at, callee);
        } else {
            let (first, argc) = self.args_in_registers(args)?;
            self.mark(call.span);
            let at = self.emit(Op::Call { dst, callee: f, this, args: first, argc })?;
            self.name_callee(at, callee);
        }
        Ok(())
    }

    /// Records how the callee of the call at `at` is written, for error messages.
    fn name_callee(&mut self, at: usize, callee: &Expr) {
        if let Some(name) = self.expr_text(callee, 0) {
            let k = self.string_const(&name);
            self.callee_names.push((at as u32, k));
        }
    }

    /// Source-like text of simple callee expressions (`a`, `a.b.c`, `this.x`, `a[0]`).
    fn expr_text(&self, e: &Expr, depth: usize) -> Option<String> {
        if depth > 8 {
            return None;
        }
        match &e.kind {
            ExprKind::Var { var, .. } => Some(match var {
                VarRef::Local(id) => self.var_info(*id)?.name.clone(),
                VarRef::Capture(i) => self.capture_names.get(*i as usize)?.clone(),
                VarRef::Global(name) => name.clone(),
            }),
            ExprKind::This => Some("this".into()),
            ExprKind::Member { object, property, optional } => {
                let base = self.expr_text(object, depth + 1)?;
                let dot = if *optional { "?." } else { "." };
                match &**property {
                    Property::Named(name) => Some(format!("{base}{dot}{name}")),
                    Property::Computed(key) => match &key.kind {
                        ExprKind::Number(n) => Some(format!("{base}[{n}]")),
                        ExprKind::String(s) => Some(format!("{base}[{s:?}]")),
                        _ => Some(format!("{base}[...]")),
                    },
                    Property::Private(name) => Some(format!("{base}{dot}{}", private_display(name))),
                }
            }
            ExprKind::OptionalChain(inner) => self.expr_text(inner, depth + 1),
            _ => None,
        }
    }

    /// For member targets: the object and key registers (evaluated once). A named property
    /// needs no key register: it is read and written by name (`GetNamed`, `SetNamed`).
    fn target_ref(&mut self, target: &'a Pattern) -> Result<(Reg, Reg), CompileError> {
        match target {
            Pattern::Member { object, property } => {
                let obj = self.alloc_reg()?;
                self.expr(object, obj)?;
                let key = match &**property {
                    Property::Named(_) => 0,
                    Property::Computed(key) => {
                        // Reading the target checks its object after evaluating the key and
                        // before converting it.
                        let r = self.alloc_reg()?;
                        self.expr(key, r)?;
                        self.require_object_coercible(obj, "Cannot read properties of null or undefined")?;
                        self.emit(Op::ToPropertyKey { dst: r, src: r })?;
                        r
                    }
                    _ => self.property_key(property)?,
                };
                Ok((obj, key))
            }
            _ => Ok((0, 0)),
        }
    }

    fn read_target(&mut self, target: &'a Pattern, obj: Reg, key: Reg, dst: Reg) -> Result<(), CompileError> {
        match target {
            Pattern::Var(var) => self.load_var(var, matches!(var, VarRef::Capture(_)), dst),
            Pattern::Member { property, .. } => {
                match &**property {
                    Property::Named(name) => {
                        let k = self.string_const(name);
                        self.emit(Op::GetNamed { dst, obj, k })?
                    }
                    Property::Private(_) => self.emit(Op::GetPrivate { dst, obj, key })?,
                    Property::Computed(_) => self.emit(Op::GetIndex { dst, obj, key })?,
                };
                Ok(())
            }
            _ => Err(self.error("invalid assignment target")),
        }
    }

    fn write_target(
        &mut self,
        target: &'a Pattern,
        obj: Reg,
        key: Reg,
        src: Reg,
    ) -> Result<(), CompileError> {
        match target {
            Pattern::Var(var) => self.store_var(var, src, false),
            Pattern::Member { property, .. } => {
                match &**property {
                    Property::Named(name) => {
                        let k = self.string_const(name);
                        self.emit(Op::SetNamed { obj, k, src })?
                    }
                    Property::Private(_) => self.emit(Op::SetPrivate { obj, key, src })?,
                    Property::Computed(_) => self.emit(Op::SetIndex { obj, key, src })?,
                };
                Ok(())
            }
            _ => Err(self.error("invalid assignment target")),
        }
    }

    fn assign(
        &mut self,
        op: Option<BinaryOp>,
        target: &'a Pattern,
        value: &'a Expr,
        dst: Reg,
    ) -> Result<(), CompileError> {
        match (op, target) {
            (None, Pattern::Member { object, property }) => {
                let obj = self.alloc_reg()?;
                self.expr(object, obj)?;
                match &**property {
                    Property::Named(name) => {
                        self.expr(value, dst)?;
                        let k = self.string_const(name);
                        self.emit(Op::SetNamed { obj, k, src: dst })?;
                    }
                    Property::Computed(key) => {
                        // `o[k] = v` converts `k` when it writes: after `v`, and after checking `o`.
                        let kr = self.alloc_reg()?;
                        self.expr(key, kr)?;
                        self.expr(value, dst)?;
                        self.require_object_coercible(obj, "Cannot set properties of null or undefined")?;
                        self.emit(Op::ToPropertyKey { dst: kr, src: kr })?;
                        self.emit(Op::SetIndex { obj, key: kr, src: dst })?;
                    }
                    Property::Private(name) => {
                        let kr = self.alloc_reg()?;
                        let k = self.string_const(name);
                        self.emit(Op::LoadConst { dst: kr, k })?;
                        self.expr(value, dst)?;
                        self.emit(Op::SetPrivate { obj, key: kr, src: dst })?;
                    }
                }
                Ok(())
            }
            (None, pattern) => {
                self.expr(value, dst)?;
                self.bind_pattern(pattern, dst, false)
            }
            (Some(op), target) => {
                let (obj, key) = self.target_ref(target)?;
                let current = self.alloc_reg()?;
                self.read_target(target, obj, key, current)?;
                let v = self.expr_any(value)?;
                self.emit(Op::Binary { op, dst, a: current, b: v })?;
                self.write_target(target, obj, key, dst)
            }
        }
    }

    fn update(
        &mut self,
        op: UpdateOp,
        prefix: bool,
        target: &'a Pattern,
        dst: Reg,
    ) -> Result<(), CompileError> {
        let (obj, key) = self.target_ref(target)?;
        let old = self.alloc_reg()?;
        self.read_target(target, obj, key, old)?;
        self.emit(Op::ToNumeric { dst: old, src: old })?;
        let new = if prefix { dst } else { self.alloc_reg()? };
        self.emit(match op {
            UpdateOp::Increment => Op::Inc { dst: new, src: old },
            UpdateOp::Decrement => Op::Dec { dst: new, src: old },
        })?;
        self.write_target(target, obj, key, new)?;
        if !prefix {
            self.emit(Op::Move { dst, src: old })?;
        }
        Ok(())
    }
}

/// A private name as the program wrote it (`#x`, without the class number).
pub(super) fn private_display(name: &str) -> &str {
    name.split('\0').next().unwrap_or(name)
}

/// `n` as an `i32` operand when that is exact (not -0, integral, in range).
fn small_int(n: f64) -> Option<i32> {
    (n.fract() == 0.0 && n.abs() < 2_147_483_647.0 && !(n == 0.0 && n.is_sign_negative())).then_some(n as i32)
}

fn short_circuit(op: LogicalOp, r: Reg) -> Op {
    match op {
        LogicalOp::And => Op::JumpIfFalse { src: r, target: 0 },
        LogicalOp::Or => Op::JumpIfTrue { src: r, target: 0 },
        LogicalOp::Nullish => Op::JumpIfNotNullish { src: r, target: 0 },
    }
}

/// Whether evaluating `e` may write a local's register (assignments and updates; calls cannot,
/// since a local a closure could write lives in a cell). Conservative past a fixed depth.
pub(super) fn writes_locals(e: &Expr, depth: usize) -> bool {
    use ExprKind as K;
    if depth > 64 {
        return true;
    }
    let w = |x: &Expr| writes_locals(x, depth + 1);
    let elems = |items: &[ArrayElem]| {
        items.iter().any(|a| match a {
            ArrayElem::Item(x) | ArrayElem::Spread(x) => writes_locals(x, depth + 1),
            ArrayElem::Hole => false,
        })
    };
    match &e.kind {
        K::Assign { .. } | K::LogicalAssign { .. } | K::Update { .. } => true,
        K::Undefined
        | K::Null
        | K::Bool(_)
        | K::Number(_)
        | K::BigInt(_)
        | K::String(_)
        | K::Regex { .. }
        | K::This => false,
        K::Function(_)
        | K::TypeofGlobal(_)
        | K::ThrowConstAssign { .. }
        | K::CurrentFunction
        | K::NewTarget
        | K::Internal(_)
        | K::Var { .. } => false,
        // Class bodies are other functions; the class expression itself writes its bindings.
        K::Class(_) => true,
        K::SuperCall(args) => elems(args),
        K::SuperMember { home, property } => w(home) || matches!(&**property, Property::Computed(p) if w(p)),
        K::PrivateIn { object, .. } => w(object),
        K::DefineField { key, value, .. } => w(value) || matches!(&**key, Property::Computed(p) if w(p)),
        K::Template { exprs, .. } | K::Sequence(exprs) => exprs.iter().any(w),
        K::Unary { arg, .. } | K::Await(arg) | K::OptionalChain(arg) | K::PropertyKey(arg) => w(arg),
        K::Yield { arg, .. } => arg.as_deref().is_some_and(w),
        K::Binary { left, right, .. } | K::Logical { left, right, .. } => w(left) || w(right),
        K::Conditional { test, then, otherwise } => w(test) || w(then) || w(otherwise),
        K::Member { object, property, .. } | K::Delete { object, property } => {
            w(object) || matches!(&**property, Property::Computed(p) if w(p))
        }
        K::Call { callee, args, .. } | K::New { callee, args } => w(callee) || elems(args),
        K::Array(items) => elems(items),
        K::Object(props) => props.iter().any(|p| match p {
            ObjectProp::KeyValue { key, value } => w(value) || matches!(key, PropKey::Computed(k) if w(k)),
            ObjectProp::Spread(x) | ObjectProp::Proto(x) => w(x),
            ObjectProp::Getter { key, .. } | ObjectProp::Setter { key, .. } => {
                matches!(key, PropKey::Computed(k) if w(k))
            }
        }),
    }
}
