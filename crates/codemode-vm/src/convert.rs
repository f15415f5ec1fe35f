//! JavaScript's type conversions and operators: ToBoolean, ToNumber, ToString, ToPropertyKey,
//! `typeof`, equality, relational comparison and the arithmetic operators.
//!
//! These paths convert objects without calling user code: arrays join their elements, Dates
//! give their time value, other objects read as `"[object Object]"`. An object whose `valueOf` or
//! `toString` is a program function never reaches them from the operators, `String()` or
//! `Number()`: those start a resumable conversion first (`to_primitive.rs`). Built-ins that
//! convert elements internally (`join`, `sort` without a comparator) still use these paths.

use crate::meter::Work;
use codemode_bytecode::{BinOp, ErrorKind, UnOp};
use codemode_ir::IntegerDigits;
use smallvec::SmallVec;

use crate::Vm;
use crate::call::Throw;
use crate::numconv::{number_to_string, string_to_number, to_int32, to_uint32};
use crate::object::{Callable, ObjKind};
use crate::props::Key;
use crate::value::Value;

/// The deepest array nesting `String([[...]])` walks before giving up with a RangeError.
const MAX_JOIN_DEPTH: usize = 64;

impl Vm {
    #[inline]
    pub(crate) fn to_boolean(&self, v: Value) -> bool {
        match v {
            Value::Undefined | Value::Null | Value::Uninit => false,
            Value::Bool(b) => b,
            Value::Number(n) => !(n == 0.0 || n.is_nan()),
            Value::Str(s) => !self.heap.str(s).is_empty(),
            Value::BigInt(b) => !num_traits::Zero::is_zero(self.big(b)),
            Value::Obj(_) | Value::Cell(_) | Value::ArrayIter(..) | Value::Symbol(_) => true,
        }
    }

    pub(crate) fn to_number(&mut self, v: Value) -> Result<f64, Throw> {
        Ok(match v {
            Value::Number(n) => n,
            Value::Undefined | Value::Uninit | Value::Cell(_) | Value::ArrayIter(..) => f64::NAN,
            Value::Null => 0.0,
            Value::Bool(b) => b as u8 as f64,
            Value::Str(s) => string_to_number(self.heap.str(s)),
            Value::Symbol(_) => return Err(self.symbol_conversion_error("number")),
            Value::BigInt(_) => return Err(self.bigint_to_number_error()),
            Value::Obj(id) => match &self.heap.obj(id).kind {
                ObjKind::Date(t) => *t,
                ObjKind::Boxed(inner) => {
                    let inner = *inner;
                    return self.to_number(inner);
                }
                _ => {
                    if let Some(prim) = self.replay_to_primitive(v, false)? {
                        return self.to_number(prim);
                    }
                    let s = self.to_rust_string(v)?;
                    string_to_number(&s)
                }
            },
        })
    }

    /// ToString, as a Rust string.
    /// Appends the elements of array `id`, separated by `sep`, to `out` (`Array.prototype.join`
    /// and array-to-string conversion). Nested arrays are written into the same buffer, not built
    /// and copied level by level; the text's memory is checked as it grows and its bytes charged.
    pub(crate) fn join_into(
        &mut self,
        id: crate::value::ObjId,
        sep: &str,
        depth: usize,
        out: &mut String,
    ) -> Result<(), Throw> {
        self.join_memo(id, sep, depth, out, &mut Default::default())
    }

    /// [`Vm::join_into`] remembering where each nested array's text went in `out`: an array met
    /// again (a DAG of shared arrays) is copied from there instead of walked again, so the work is
    /// linear in the output. No program code runs during a join, so the arrays cannot change.
    fn join_memo(
        &mut self,
        id: crate::value::ObjId,
        sep: &str,
        depth: usize,
        out: &mut String,
        memo: &mut crate::value::FastMap<crate::value::ObjId, (usize, usize)>,
    ) -> Result<(), Throw> {
        if depth > MAX_JOIN_DEPTH {
            return Err(self.make_error(ErrorKind::RangeError, "Maximum call stack size exceeded"));
        }
        let len = match &self.heap.obj(id).kind {
            ObjKind::Array(items) => items.len(),
            _ => 0,
        };
        self.charge(Work::Elements(len.max(1)));
        let mut checked = out.len();
        for i in 0..len {
            let item = match &self.heap.obj(id).kind {
                ObjKind::Array(items) => items.get(i).copied().unwrap_or(Value::Undefined),
                _ => Value::Undefined,
            };
            if i > 0 {
                out.push_str(sep);
            }
            match item {
                Value::Undefined | Value::Null => {}
                // A cycle joins as empty, as in JavaScript engines.
                Value::Obj(inner) if inner == id => {}
                Value::Obj(inner) if matches!(self.heap.obj(inner).kind, ObjKind::Array(_)) => {
                    if let Some(&(start, end)) = memo.get(&inner) {
                        self.check_join_growth(out.len() + (end - start), &mut checked)?;
                        out.extend_from_within(start..end);
                    } else {
                        let start = out.len();
                        self.join_memo(inner, ",", depth + 1, out, memo)?;
                        memo.insert(inner, (start, out.len()));
                    }
                    // Checked and charged what was written.
                    checked = out.len();
                }
                Value::Str(s) => out.push_str(self.heap.str(s)),
                other => {
                    let text = self.to_rust_string_depth(other, depth + 1)?;
                    out.push_str(&text);
                }
            }
            // Checked every 64 KiB of growth (and at the end), charged as one piece.
            if out.len() - checked >= 1 << 16 {
                self.check_join_growth(out.len(), &mut checked)?;
            }
        }
        self.check_join_growth(out.len(), &mut checked)
    }

    pub(crate) fn check_join_growth(&mut self, len: usize, checked: &mut usize) -> Result<(), Throw> {
        self.charge(Work::Bytes(len.saturating_sub(*checked)));
        *checked = len;
        if len > crate::heap::MAX_STRING_BYTES {
            return Err(self.make_error(ErrorKind::RangeError, "Invalid string length"));
        }
        self.ensure_fits(len)
    }

    pub(crate) fn to_rust_string(&mut self, v: Value) -> Result<String, Throw> {
        self.to_rust_string_depth(v, 0)
    }

    fn to_rust_string_depth(&mut self, v: Value, depth: usize) -> Result<String, Throw> {
        Ok(match v {
            Value::Str(s) => self.heap.str(s).to_string(),
            Value::Number(n) => number_to_string(n),
            Value::Bool(b) => b.to_string(),
            Value::Undefined | Value::Uninit | Value::Cell(_) | Value::ArrayIter(..) => "undefined".into(),
            Value::Null => "null".into(),
            Value::Symbol(_) => return Err(self.symbol_conversion_error("string")),
            Value::BigInt(b) => self.bigint_to_string(b, 10),
            Value::Obj(id) => {
                if depth > MAX_JOIN_DEPTH {
                    return Err(self.make_error(ErrorKind::RangeError, "Maximum call stack size exceeded"));
                }
                // In a built-in's run, a program's own conversion methods count (`replay.rs`).
                if self.replaying()
                    && let Some(prim) = self.replay_to_primitive(v, true)?
                {
                    return self.to_rust_string_depth(prim, depth + 1);
                }
                // A URL's `toString` is its href, a `URLSearchParams`'s its query string.
                if matches!(self.heap.obj(id).kind, ObjKind::Url(_))
                    && let Some(text) = crate::builtins::url_text(self, id)?
                {
                    return Ok(text);
                }
                match &self.heap.obj(id).kind {
                    ObjKind::Array(_) => {
                        let mut out = String::new();
                        self.join_into(id, ",", depth, &mut out)?;
                        out
                    }
                    ObjKind::Error(_) => {
                        let name = self.get_named(v, "name")?;
                        let message = self.get_named(v, "message")?;
                        let name = if name == Value::Undefined {
                            "Error".into()
                        } else {
                            self.to_rust_string(name)?
                        };
                        let message = if message == Value::Undefined {
                            String::new()
                        } else {
                            self.to_rust_string(message)?
                        };
                        match (name.is_empty(), message.is_empty()) {
                            (_, true) => name,
                            (true, false) => message,
                            (false, false) => format!("{name}: {message}"),
                        }
                    }
                    ObjKind::Function(_) => "function () { [native code] }".into(),
                    ObjKind::Date(t) => crate::builtins::date_to_string(*t, &self.config.time_zone),
                    ObjKind::RegExp { source, flags, .. } => format!("/{source}/{flags}"),
                    ObjKind::Boxed(inner) => {
                        let inner = *inner;
                        self.to_rust_string_depth(inner, depth + 1)?
                    }
                    ObjKind::Map { set: false, .. } => "[object Map]".into(),
                    ObjKind::Map { set: true, .. } => "[object Set]".into(),
                    ObjKind::TypedArray(_) => crate::builtins::typed_join(self, id, ",")?,
                    _ => match self.get_value(v, Key::Atom(self.realm.symbols.to_string_tag))? {
                        Value::Str(tag) => format!("[object {}]", self.heap.str(tag)),
                        _ => "[object Object]".into(),
                    },
                }
            }
        })
    }

    /// ToString, as a string value (no allocation when `v` already is one).
    pub(crate) fn to_string_value(&mut self, v: Value) -> Result<Value, Throw> {
        if let Value::Str(_) = v {
            return Ok(v);
        }
        let s = self.to_rust_string(v)?;
        self.new_string_owned(s)
    }

    /// The `TypeError` of converting a symbol implicitly (`"" + sym`, `+sym`).
    pub(crate) fn symbol_conversion_error(&mut self, to: &str) -> Throw {
        let msg = format!("Cannot convert a Symbol value to a {to}");
        self.make_error(ErrorKind::TypeError, &msg)
    }

    /// `Symbol(desc).toString()`: `"Symbol(desc)"` (what `String(sym)` and logs show).
    pub(crate) fn symbol_descriptive_string(&self, symbol: crate::value::Atom) -> String {
        format!("Symbol({})", self.heap.atoms.name(symbol))
    }

    /// ToPropertyKey, as a value: numbers stay numbers (array indices), symbols stay symbols,
    /// the rest become strings.
    pub(crate) fn to_property_key_value(&mut self, v: Value) -> Result<Value, Throw> {
        match v {
            Value::Number(_) | Value::Str(_) | Value::Symbol(_) => Ok(v),
            // ToPrimitive (string hint) once: a symbol it gives stays a symbol.
            Value::Obj(_) if self.replaying() => match self.replay_to_primitive(v, true)? {
                Some(prim) => self.to_property_key_value(prim),
                None => self.to_string_value(v),
            },
            _ => self.to_string_value(v),
        }
    }

    pub(crate) fn typeof_str(&self, v: Value) -> &'static str {
        match v {
            Value::Undefined | Value::Uninit | Value::Cell(_) | Value::ArrayIter(..) => "undefined",
            Value::Null => "object",
            Value::Bool(_) => "boolean",
            Value::Number(_) => "number",
            Value::Str(_) => "string",
            Value::Symbol(_) => "symbol",
            Value::BigInt(_) => "bigint",
            Value::Obj(id) => match &self.heap.obj(id).kind {
                // The `tools` root is a namespace object, as in the reference runtime.
                ObjKind::Function(Callable::Tool { path }) if path.is_empty() => "object",
                // A member the host did not declare (`tools.nope`): still callable, so that a
                // call reports `UnknownTool` with a suggestion, but not there to a program that
                // checks first.
                ObjKind::Function(Callable::Tool { path }) if self.host.tools.is_unknown(path) => "undefined",
                ObjKind::Function(_) | ObjKind::Proxy { callable: true, .. } => "function",
                _ => "object",
            },
        }
    }

    pub(crate) fn typeof_value(&mut self, v: Value) -> Result<Value, Throw> {
        let s = self.typeof_str(v);
        self.intern_string(s)
    }

    /// Comparing two strings reads up to the shorter one's length: charged as bytes.
    #[inline]
    fn charge_string_comparison(&mut self, a: Value, b: Value) {
        if let (Value::Str(x), Value::Str(y)) = (a, b)
            && x != y
        {
            let n = self.heap.str(x).len().min(self.heap.str(y).len());
            self.charge(Work::Bytes(n));
        }
    }

    /// `===` as the operator: [`Vm::strict_equals`] with the strings' comparison charged.
    #[inline]
    pub(crate) fn strict_equals_metered(&mut self, a: Value, b: Value) -> bool {
        self.charge_string_comparison(a, b);
        self.strict_equals(a, b)
    }

    pub(crate) fn strict_equals(&self, a: Value, b: Value) -> bool {
        match (a, b) {
            (Value::Number(x), Value::Number(y)) => x == y,
            (Value::Str(x), Value::Str(y)) => x == y || self.heap.str(x) == self.heap.str(y),
            (Value::Undefined, Value::Undefined) | (Value::Null, Value::Null) => true,
            (Value::Bool(x), Value::Bool(y)) => x == y,
            (Value::Obj(x), Value::Obj(y)) => x == y,
            (Value::Symbol(x), Value::Symbol(y)) => x == y,
            (Value::BigInt(x), Value::BigInt(y)) => x == y || self.big(x) == self.big(y),
            _ => false,
        }
    }

    /// SameValueZero (`includes`, Map/Set keys): like `===` but NaN equals NaN.
    pub(crate) fn same_value_zero(&self, a: Value, b: Value) -> bool {
        match (a, b) {
            (Value::Number(x), Value::Number(y)) => x == y || (x.is_nan() && y.is_nan()),
            _ => self.strict_equals(a, b),
        }
    }

    pub(crate) fn loose_equals(&mut self, a: Value, b: Value) -> Result<bool, Throw> {
        Ok(match (a, b) {
            (Value::Undefined | Value::Null, Value::Undefined | Value::Null) => true,
            (Value::Undefined | Value::Null, _) | (_, Value::Undefined | Value::Null) => false,
            (Value::Number(_), Value::Str(_)) | (Value::Str(_), Value::Number(_)) => {
                self.to_number(a)? == self.to_number(b)?
            }
            (Value::BigInt(_), Value::BigInt(_)) => self.strict_equals(a, b),
            (Value::BigInt(_), Value::Number(_) | Value::Str(_) | Value::Bool(_))
            | (Value::Number(_) | Value::Str(_) | Value::Bool(_), Value::BigInt(_)) => {
                self.bigint_loose_equals(a, b)
            }
            (Value::Bool(_), _) => {
                let n = Value::Number(self.to_number(a)?);
                return self.loose_equals(n, b);
            }
            (_, Value::Bool(_)) => {
                let n = Value::Number(self.to_number(b)?);
                return self.loose_equals(a, n);
            }
            (Value::Obj(_), Value::Number(_) | Value::Str(_) | Value::Symbol(_) | Value::BigInt(_)) => {
                let p = self.to_primitive_default(a)?;
                return self.loose_equals(p, b);
            }
            (Value::Number(_) | Value::Str(_) | Value::Symbol(_) | Value::BigInt(_), Value::Obj(_)) => {
                let p = self.to_primitive_default(b)?;
                return self.loose_equals(a, p);
            }
            _ => self.strict_equals(a, b),
        })
    }

    /// ToPrimitive with the number hint, without user code: Dates become their time value,
    /// other objects strings.
    pub(crate) fn to_primitive(&mut self, v: Value) -> Result<Value, Throw> {
        match v {
            Value::Obj(id) => match &self.heap.obj(id).kind {
                ObjKind::Date(t) => Ok(Value::Number(*t)),
                ObjKind::Boxed(inner) => Ok(*inner),
                _ => match self.replay_to_primitive(v, false)? {
                    Some(prim) => Ok(prim),
                    None => self.to_string_value(v),
                },
            },
            _ => Ok(v),
        }
    }

    /// ToPrimitive with the default hint (`+`, `==`): like [`Vm::to_primitive`], except that a
    /// Date becomes its string, as JavaScript's Date treats the default hint as string.
    fn to_primitive_default(&mut self, v: Value) -> Result<Value, Throw> {
        match v {
            Value::Obj(id) if matches!(self.heap.obj(id).kind, ObjKind::Date(_)) => self.to_string_value(v),
            _ => self.to_primitive(v),
        }
    }

    pub(crate) fn binary(&mut self, op: BinOp, a: Value, b: Value) -> Result<Value, Throw> {
        self.charge_string_comparison(a, b);
        if matches!(
            op,
            BinOp::Sub
                | BinOp::Mul
                | BinOp::Div
                | BinOp::Rem
                | BinOp::Exp
                | BinOp::BitAnd
                | BinOp::BitOr
                | BinOp::BitXor
                | BinOp::Shl
                | BinOp::Shr
                | BinOp::UShr
        ) {
            // ToNumeric of both: a BigInt operand takes the BigInt operators (`bigint.rs`).
            let (pa, pb) = (self.to_primitive(a)?, self.to_primitive(b)?);
            if matches!(pa, Value::BigInt(_)) || matches!(pb, Value::BigInt(_)) {
                return self.bigint_arith(op, pa, pb);
            }
        }
        Ok(match op {
            BinOp::Add => {
                let (pa, pb) = (self.to_primitive_default(a)?, self.to_primitive_default(b)?);
                if matches!(pa, Value::Str(_)) || matches!(pb, Value::Str(_)) {
                    return self.concat(pa, pb);
                }
                if matches!(pa, Value::BigInt(_)) || matches!(pb, Value::BigInt(_)) {
                    return self.bigint_arith(op, pa, pb);
                }
                Value::Number(self.to_number(pa)? + self.to_number(pb)?)
            }
            BinOp::Sub => Value::Number(self.to_number(a)? - self.to_number(b)?),
            BinOp::Mul => Value::Number(self.to_number(a)? * self.to_number(b)?),
            BinOp::Div => Value::Number(self.to_number(a)? / self.to_number(b)?),
            BinOp::Rem => {
                let (x, y) = (self.to_number(a)?, self.to_number(b)?);
                Value::Number(crate::numconv::js_rem(x, y))
            }
            BinOp::Exp => {
                let (x, y) = (self.to_number(a)?, self.to_number(b)?);
                Value::Number(if y.is_nan() || ((x == 1.0 || x == -1.0) && y.is_infinite()) {
                    f64::NAN
                } else {
                    x.powf(y)
                })
            }
            BinOp::Eq => Value::Bool(self.loose_equals(a, b)?),
            BinOp::NotEq => Value::Bool(!self.loose_equals(a, b)?),
            BinOp::StrictEq => Value::Bool(self.strict_equals(a, b)),
            BinOp::StrictNotEq => Value::Bool(!self.strict_equals(a, b)),
            BinOp::Lt => Value::Bool(self.less_than(a, b, false)?),
            BinOp::Gt => Value::Bool(self.less_than(b, a, false)?),
            BinOp::LtEq => Value::Bool(self.less_than(b, a, true)?),
            BinOp::GtEq => Value::Bool(self.less_than(a, b, true)?),
            BinOp::BitAnd => Value::Number((self.int32(a)? & self.int32(b)?) as f64),
            BinOp::BitOr => Value::Number((self.int32(a)? | self.int32(b)?) as f64),
            BinOp::BitXor => Value::Number((self.int32(a)? ^ self.int32(b)?) as f64),
            BinOp::Shl => {
                let (x, y) = (self.int32(a)?, self.uint32(b)?);
                Value::Number(x.wrapping_shl(y & 31) as f64)
            }
            BinOp::Shr => {
                let (x, y) = (self.int32(a)?, self.uint32(b)?);
                Value::Number((x >> (y & 31)) as f64)
            }
            BinOp::UShr => {
                let (x, y) = (self.uint32(a)?, self.uint32(b)?);
                Value::Number((x >> (y & 31)) as f64)
            }
            BinOp::In => {
                if !matches!(b, Value::Obj(_)) {
                    return Err(self.make_error(
                        ErrorKind::TypeError,
                        "Cannot use 'in' operator to search for a key in a non-object",
                    ));
                }
                let key = self.to_key(a)?;
                Value::Bool(self.has_property(b, key))
            }
            BinOp::InstanceOf => Value::Bool(self.instance_of(a, b)?),
        })
    }

    /// An arithmetic operator on primitives at least one of which is a BigInt: both must be.
    fn bigint_arith(&mut self, op: BinOp, a: Value, b: Value) -> Result<Value, Throw> {
        match (a, b) {
            (Value::BigInt(x), Value::BigInt(y)) => self.bigint_binary(op, x, y),
            (Value::Symbol(_), _) | (_, Value::Symbol(_)) => Err(self.symbol_conversion_error("number")),
            _ => Err(self.bigint_mix_error()),
        }
    }

    /// `a < b` (or `!(a < b)` shaped as `b <= a` when `or_equal`), with undefined results false.
    fn less_than(&mut self, a: Value, b: Value, negate_from_swapped: bool) -> Result<bool, Throw> {
        let (pa, pb) = (self.to_primitive(a)?, self.to_primitive(b)?);
        if matches!(pa, Value::BigInt(_)) || matches!(pb, Value::BigInt(_)) {
            let (pa, pb) = match (pa, pb) {
                (Value::BigInt(_), Value::Str(_) | Value::BigInt(_)) | (Value::Str(_), Value::BigInt(_)) => {
                    (pa, pb)
                }
                (Value::BigInt(_), other) => (pa, Value::Number(self.to_number(other)?)),
                (other, _) => (Value::Number(self.to_number(other)?), pb),
            };
            return Ok(match self.bigint_compare(pa, pb) {
                None => false,
                Some(order) => (order == std::cmp::Ordering::Less) != negate_from_swapped,
            });
        }
        if let (Value::Str(x), Value::Str(y)) = (pa, pb) {
            let (x, y) = (self.heap.str(x), self.heap.str(y));
            // UTF-16 code unit order; for BMP text this equals char order.
            let lt = x.encode_utf16().lt(y.encode_utf16());
            return Ok(if negate_from_swapped { !lt } else { lt });
        }
        let (x, y) = (self.to_number(pa)?, self.to_number(pb)?);
        if x.is_nan() || y.is_nan() {
            return Ok(false);
        }
        // NaN was handled above, so `!(x < y)` is `x >= y`.
        Ok(if negate_from_swapped { x >= y } else { x < y })
    }

    fn int32(&mut self, v: Value) -> Result<i32, Throw> {
        Ok(to_int32(self.to_number(v)?))
    }

    fn uint32(&mut self, v: Value) -> Result<u32, Throw> {
        Ok(to_uint32(self.to_number(v)?))
    }

    pub(crate) fn unary(&mut self, op: UnOp, v: Value) -> Result<Value, Throw> {
        if matches!(op, UnOp::Minus | UnOp::BitNot | UnOp::Plus)
            && let Value::BigInt(x) = self.to_primitive(v)?
        {
            return self.bigint_unary(op, x);
        }
        Ok(match op {
            UnOp::Minus => Value::Number(-self.to_number(v)?),
            UnOp::Plus => Value::Number(self.to_number(v)?),
            UnOp::Not => Value::Bool(!self.to_boolean(v)),
            UnOp::BitNot => Value::Number(!self.int32(v)? as f64),
            UnOp::Typeof => self.typeof_value(v)?,
            UnOp::Void => Value::Undefined,
        })
    }

    /// String concatenation (`a + b` with a string operand).
    pub(crate) fn concat(&mut self, a: Value, b: Value) -> Result<Value, Throw> {
        self.concat_all(&[a, b])
    }

    /// The pieces joined into one new string, each a string or a primitive printed as ToString
    /// does (a template literal's pieces, `Concat`). The length cap and the result's memory are
    /// checked before it is built, and the common pieces are read in place: an integer (`"g" + i`,
    /// the common way keys are built) goes in as digits, without a string of its own.
    #[inline]
    pub(crate) fn concat_all(&mut self, pieces: &[Value]) -> Result<Value, Throw> {
        if let Some(short) = self.concat_short(pieces) {
            return short;
        }
        let mut digits: SmallVec<[Option<IntegerDigits>; 4]> = SmallVec::with_capacity(pieces.len());
        let mut total = 0usize;
        for &v in pieces {
            let (len, d) = match v {
                Value::Str(id) => (self.heap.str(id).len(), None),
                Value::Number(n) if let Some(d) = IntegerDigits::of(n) => (d.len(), Some(d)),
                _ => return self.concat_printed(pieces),
            };
            total = total.saturating_add(len);
            digits.push(d);
        }
        if total > crate::heap::MAX_STRING_BYTES {
            return Err(self.make_error(ErrorKind::RangeError, "Invalid string length"));
        }
        // Copying is O(length): long strings built with `+=` in a loop must run out of fuel.
        self.charge(Work::Bytes(total));
        self.ensure_fits(crate::heap::STRING_OVERHEAD + total)?;
        // Built where it stays: a short result (most keys and ids) needs no allocation at all.
        let mut out = compact_str::CompactString::with_capacity(total);
        for (&v, d) in pieces.iter().zip(&digits) {
            match (v, d) {
                (_, Some(d)) => out.push_str(d.as_str()),
                (Value::Str(id), None) => out.push_str(self.heap.str(id)),
                _ => {}
            }
        }
        self.new_string_owned(out)
    }

    /// [`Vm::concat_all`] when the result is short (most keys, ids and labels): the pieces,
    /// strings and integers only, are written once into a buffer on the stack, and the string
    /// is made from it (inline in its slot up to 24 bytes). `None`: another kind of piece, or
    /// a longer result — the general way.
    #[inline]
    fn concat_short(&mut self, pieces: &[Value]) -> Option<Result<Value, Throw>> {
        // Whole strings and digits are appended as `str`s: the result needs no UTF-8 check.
        let mut buf = arrayvec::ArrayString::<64>::new();
        for &v in pieces {
            match v {
                Value::Str(id) => buf.try_push_str(self.heap.str(id)).ok()?,
                // ASCII digits, pushed as chars.
                Value::Number(n) => {
                    for &digit in IntegerDigits::of(n)?.as_bytes() {
                        buf.try_push(char::from(digit)).ok()?;
                    }
                }
                _ => return None,
            }
        }
        let len = buf.len();
        self.charge(Work::Bytes(len));
        let text = compact_str::CompactString::from(buf.as_str());
        Some(self.ensure_fits(crate::heap::STRING_OVERHEAD + len).and_then(|()| self.new_string_owned(text)))
    }

    /// `Concat`: the `count` registers from stack index `first` joined (out of line: the
    /// interpreter's loop stays small).
    #[inline(never)]
    pub(crate) fn concat_registers(&mut self, first: usize, count: usize) -> Result<Value, Throw> {
        let pieces: SmallVec<[Value; 8]> =
            self.stack.get(first..first + count).unwrap_or(&[]).iter().copied().collect();
        self.charge(Work::Elements(pieces.len()));
        self.concat_all(&pieces)
    }

    /// [`Vm::concat_all`] when a piece must be printed first (a fraction, a boolean, `null`, a
    /// BigInt, …; a symbol throws): each such piece becomes a string of its own, in order.
    fn concat_printed(&mut self, pieces: &[Value]) -> Result<Value, Throw> {
        let mut printed: SmallVec<[Value; 8]> = SmallVec::with_capacity(pieces.len());
        for &v in pieces {
            printed.push(match v {
                Value::Str(_) => v,
                Value::Number(n) if IntegerDigits::of(n).is_some() => v,
                _ => {
                    let text = self.to_rust_string(v)?;
                    self.new_string_owned(text)?
                }
            });
        }
        // Every piece is now a string or an integer: this join does not come back here.
        self.concat_all(&printed)
    }

    /// `key in o` for built-ins (a proxy on the chain answers `false`: see [`Vm::has_found`]).
    pub(crate) fn has_property(&mut self, o: Value, key: Key) -> bool {
        matches!(self.has_found(o, key), crate::proxy::HasFound::Yes)
    }

    /// `key in o`, or the proxy the chain ends at (whose `has` trap answers: `proxy.rs`).
    pub(crate) fn has_found(&mut self, o: Value, key: Key) -> crate::proxy::HasFound {
        use crate::proxy::HasFound;
        let Value::Obj(mut id) = o else { return HasFound::No };
        for _ in 0..10_000 {
            // A `tools` namespace lists its children before `in` looks (out of memory: the
            // failure is reported by the next charge; here the name is not found).
            if matches!(self.heap.obj(id).kind, ObjKind::Function(Callable::Tool { .. }))
                && self.list_tool_children(id).is_err()
            {
                return HasFound::No;
            }
            let obj = self.heap.obj(id);
            match (&obj.kind, key) {
                (ObjKind::Array(items), Key::Index(i)) if (i as usize) < items.len() => return HasFound::Yes,
                (ObjKind::Array(_), Key::Atom(a)) if a == self.realm.atoms.length => return HasFound::Yes,
                (ObjKind::TypedArray(t), key) => {
                    if let Some(present) = crate::builtins::indexed_has(&self.heap, t, key) {
                        return if present { HasFound::Yes } else { HasFound::No };
                    }
                }
                (ObjKind::Boxed(Value::Str(s)), Key::Index(i))
                    if (i as usize) < self.heap.string(*s).utf16_len() =>
                {
                    return HasFound::Yes;
                }
                (ObjKind::Boxed(Value::Str(_)), Key::Atom(a)) if a == self.realm.atoms.length => {
                    return HasFound::Yes;
                }
                (ObjKind::Proxy { .. }, _) => return HasFound::Proxy(id),
                _ => {}
            }
            let atom = match key {
                Key::Atom(a) => Some(a),
                Key::Index(i) => self.heap.atoms.lookup_index(i),
            };
            let obj = self.heap.obj(id);
            if atom.is_some_and(|a| obj.props.find(a).is_some()) {
                return HasFound::Yes;
            }
            match obj.proto {
                Some(p) => id = p,
                None => return HasFound::No,
            }
        }
        HasFound::No
    }

    /// `InstanceofOperator` without `Symbol.hasInstance` (OrdinaryHasInstance): `v`'s chain
    /// holds `ctor.prototype`.
    pub(crate) fn instance_of(&mut self, v: Value, ctor: Value) -> Result<bool, Throw> {
        let Value::Obj(cid) = ctor else {
            return Err(
                self.make_error(ErrorKind::TypeError, "Right-hand side of 'instanceof' is not callable")
            );
        };
        if !self.heap.obj(cid).is_callable() {
            return Err(
                self.make_error(ErrorKind::TypeError, "Right-hand side of 'instanceof' is not callable")
            );
        }
        // A bound function tests against its target, iteratively. A chain of binds is acyclic
        // (each bind makes a new object pointing at an older one), so it is shorter than the heap.
        let mut cid = cid;
        for _ in 0..self.heap.objects.len() {
            match self.heap.obj(cid).kind {
                ObjKind::Function(Callable::Bound { target, .. }) => cid = target,
                _ => break,
            }
        }
        let ctor = Value::Obj(cid);
        let Value::Obj(mut cur) = v else { return Ok(false) };
        let proto = self.get_value(ctor, Key::Atom(self.realm.atoms.prototype))?;
        let Value::Obj(proto) = proto else {
            let msg = "Function has non-object prototype in instanceof check";
            return Err(self.make_error(ErrorKind::TypeError, msg));
        };
        for _ in 0..10_000 {
            match self.heap.obj(cur).proto {
                Some(p) if p == proto => return Ok(true),
                Some(p) => cur = p,
                None => return Ok(false),
            }
        }
        Ok(false)
    }

    /// A short description of a value for error messages (`x is not a function`): a string is
    /// quoted and cut to [`DESCRIBE_CHARS`] characters, so a message never copies program data
    /// whole.
    pub(crate) fn describe_for_error(&mut self, v: Value) -> String {
        match v {
            Value::Str(s) => format!("\"{}\"", clip_for_message(self.heap.str(s))),
            Value::Obj(_) => "object".into(),
            _ => self.to_rust_string(v).unwrap_or_default(),
        }
    }

    /// `Map`, `WeakMap` and `Object.fromEntries` over a non-empty string: its first character is
    /// already an entry that is not an object, so the error comes before the text is iterated
    /// (collecting 2M astral characters first took seconds).
    pub(crate) fn refuse_string_entries(&mut self, source: Value) -> Result<(), Throw> {
        let Value::Str(s) = source else { return Ok(()) };
        let Some(first) = self.heap.str(s).chars().next() else { return Ok(()) };
        Err(self.not_an_entry(&first.to_string()))
    }

    /// The `TypeError` of a `Map`, `WeakMap` or `Object.fromEntries` entry that is not an object
    /// (`Iterator value ab is not an entry object`, as V8 words it).
    pub(crate) fn require_entry_object(&mut self, item: Value) -> Result<(), Throw> {
        if matches!(item, Value::Obj(_)) {
            return Ok(());
        }
        let desc = match item {
            Value::Str(s) => clip_for_message(self.heap.str(s)).to_string(),
            Value::Symbol(_) => "Symbol()".into(),
            other => self.to_rust_string(other).unwrap_or_default(),
        };
        Err(self.not_an_entry(&desc))
    }

    fn not_an_entry(&mut self, desc: &str) -> Throw {
        self.make_error(ErrorKind::TypeError, &format!("Iterator value {desc} is not an entry object"))
    }
}

/// Characters of program text an error message quotes at most.
const DESCRIBE_CHARS: usize = 64;

/// `text` cut to [`DESCRIBE_CHARS`] characters, with `…` when cut.
pub(crate) fn clip_for_message(text: &str) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(DESCRIBE_CHARS) {
        None => text.into(),
        Some((end, _)) => format!("{}…", &text[..end]).into(),
    }
}

/// The operations [`Vm::numeric_slow`] finishes.
#[derive(Clone, Copy)]
pub(crate) enum NumericOp {
    /// `++` (`true`) or `--` on a value that is not a number.
    Step(bool),
    /// ToNumeric of a value that is not a number.
    ToNumeric,
}

impl Vm {
    /// The cold side of `Inc`, `Dec` and `ToNumeric` (kept out of the instruction loop so its
    /// number paths stay small): the result, or `None` when a program's `valueOf`/`toString`
    /// was called and will deliver it to `dst`.
    #[cold]
    #[inline(never)]
    pub(crate) fn numeric_slow(&mut self, op: NumericOp, v: Value, dst: u16) -> Result<Option<Value>, Throw> {
        if matches!(op, NumericOp::ToNumeric) && matches!(v, Value::BigInt(_)) {
            return Ok(Some(v));
        }
        if let (NumericOp::Step(up), Value::BigInt(b)) = (op, v) {
            return self.bigint_step(b, if up { 1 } else { -1 }).map(Some);
        }
        if let Value::Obj(_) = v {
            let convert = match op {
                NumericOp::Step(up) => crate::to_primitive::ConvertOp::Step(up),
                NumericOp::ToNumeric => crate::to_primitive::ConvertOp::ToNumeric,
            };
            if self.convert_with_user_code(
                convert,
                [v, Value::Undefined],
                1,
                crate::frame::ReturnTo::Reg(dst),
            )? {
                return Ok(None);
            }
            return match op {
                NumericOp::Step(up) => self.numeric_step(v, up).map(Some),
                NumericOp::ToNumeric => self.to_numeric(v).map(Some),
            };
        }
        match op {
            NumericOp::Step(up) => {
                let n = self.to_number(v)?;
                Ok(Some(Value::Number(if up { n + 1.0 } else { n - 1.0 })))
            }
            NumericOp::ToNumeric => self.to_numeric(v).map(Some),
        }
    }
}
