//! Lowering expressions.
//!
//! TypeScript-only wrappers (`as`, `!`, `satisfies`, `<T>x`, `as const`, instantiation
//! expressions) and parentheses disappear here. Optional chains become one
//! [`ExprKind::OptionalChain`] around their links. Assignments are in [`super::pattern`].

use swc_common::Spanned;
use swc_ecma_ast::{
    self as ast, ArrowFunctionBody, Callee, Expr, ExprOrSpread, Lit, MemberProp, OptChainBase, OptChainExpr,
    Prop, PropName, PropOrSpread,
};

use super::{FunctionBodySource, FunctionSource, LowerResult, Lowerer};
use crate::ir::{self};
use crate::ir::{ArrayElem, BinaryOp, ExprKind, LogicalOp, ObjectProp, PropKey, Property, UnaryOp, VarRef};

impl Lowerer<'_> {
    /// Lowers an expression (depth-guarded).
    pub(crate) fn lower_expr(&mut self, expr: &Expr) -> LowerResult<ir::Expr> {
        self.enter(expr.span())?;
        let kind = self.lower_expr_kind(expr)?;
        self.leave();
        Ok(ir::Expr { kind, span: self.span(expr.span()) })
    }

    /// Lowers an expression that initializes a binding or property called `name`: an anonymous
    /// function or arrow there takes that name (JavaScript's "named evaluation").
    pub(crate) fn lower_named_expr(&mut self, expr: &Expr, name: Option<&str>) -> LowerResult<ir::Expr> {
        let Some(name) = name else { return self.lower_expr(expr) };
        let span = self.span(expr.span());
        match expr {
            Expr::Fn(function) if function.ident.is_none() => {
                let source = FunctionSource::from_function(Some(name.to_owned()), None, &function.function);
                Ok(ir::Expr { kind: ExprKind::Function(self.lower_function(source)?), span })
            }
            Expr::Arrow(arrow) => {
                let id = self.lower_function(arrow_source(arrow, Some(name.to_owned())))?;
                Ok(ir::Expr { kind: ExprKind::Function(id), span })
            }
            Expr::Paren(paren) => self.lower_named_expr(&paren.expr, Some(name)),
            _ => self.lower_expr(expr),
        }
    }

    fn lower_expr_kind(&mut self, expr: &Expr) -> LowerResult<ExprKind> {
        Ok(match expr {
            Expr::This(_) => self.this_expr(),
            Expr::Ident(ident) => self.ident_expr(ident),
            Expr::Lit(lit) => self.literal(lit)?,
            Expr::Tpl(tpl) => ExprKind::Template {
                quasis: tpl
                    .quasis
                    .iter()
                    .map(|quasi| match &quasi.cooked {
                        Some(cooked) => cooked.to_atom_lossy().to_string(),
                        None => quasi.raw.to_string(),
                    })
                    .collect(),
                exprs: self.lower_exprs(tpl.exprs.iter().map(|expr| &**expr))?,
            },
            Expr::Array(array) => {
                let mut elems = Vec::with_capacity(array.elems.len());
                for elem in &array.elems {
                    elems.push(match elem {
                        Some(elem) => self.lower_arg(elem)?,
                        None => ArrayElem::Hole,
                    });
                }
                ExprKind::Array(elems)
            }
            Expr::Object(object) => {
                let mut props = Vec::with_capacity(object.props.len());
                for prop in &object.props {
                    props.push(self.object_prop(prop)?);
                }
                ExprKind::Object(props)
            }
            Expr::Fn(function) => {
                let name = function.ident.as_ref().map(|ident| ident.sym.to_string());
                let source = FunctionSource::from_function(name.clone(), name, &function.function);
                ExprKind::Function(self.lower_function(source)?)
            }
            Expr::Arrow(arrow) => ExprKind::Function(self.lower_function(arrow_source(arrow, None))?),
            Expr::Unary(unary) => self.unary(unary)?,
            Expr::Update(update) => self.update(update)?,
            Expr::Bin(bin) => {
                let left = Box::new(self.lower_expr(&bin.left)?);
                let right = Box::new(self.lower_expr(&bin.right)?);
                match binary_op(bin.op) {
                    Operator::Binary(op) => ExprKind::Binary { op, left, right },
                    Operator::Logical(op) => ExprKind::Logical { op, left, right },
                }
            }
            Expr::Assign(assign) => self.assign(assign)?,
            Expr::Member(member) => self.member(member, false, false)?,
            Expr::Cond(cond) => ExprKind::Conditional {
                test: Box::new(self.lower_expr(&cond.test)?),
                then: Box::new(self.lower_expr(&cond.cons)?),
                otherwise: Box::new(self.lower_expr(&cond.alt)?),
            },
            Expr::Call(call) => {
                let callee = match &call.callee {
                    Callee::Expr(callee) => self.lower_expr(callee)?,
                    Callee::Super(sup) => return Err(self.unsupported("`super` is not supported", sup.span)),
                    Callee::Import(import) => {
                        return Err(self.unsupported("dynamic `import()` is not supported", import.span));
                    }
                };
                ExprKind::Call {
                    callee: Box::new(callee),
                    args: self.lower_args(&call.args)?,
                    optional: false,
                }
            }
            Expr::New(new) => ExprKind::New {
                callee: Box::new(self.lower_expr(&new.callee)?),
                args: match &new.args {
                    Some(args) => self.lower_args(args)?,
                    None => Vec::new(),
                },
            },
            Expr::Seq(seq) => ExprKind::Sequence(self.lower_exprs(seq.exprs.iter().map(|expr| &**expr))?),
            Expr::Await(await_expr) => ExprKind::Await(Box::new(self.lower_expr(&await_expr.arg)?)),
            Expr::OptChain(chain) => ExprKind::OptionalChain(Box::new(self.chain_link(chain)?)),
            // Parentheses and TypeScript-only wrappers: the inner expression is the value.
            Expr::Paren(paren) => return self.lower_expr(&paren.expr).map(|expr| expr.kind),
            Expr::TsAs(ts) => return self.lower_expr(&ts.expr).map(|expr| expr.kind),
            Expr::TsNonNull(ts) => return self.lower_expr(&ts.expr).map(|expr| expr.kind),
            Expr::TsSatisfies(ts) => return self.lower_expr(&ts.expr).map(|expr| expr.kind),
            Expr::TsTypeAssertion(ts) => return self.lower_expr(&ts.expr).map(|expr| expr.kind),
            Expr::TsConstAssertion(ts) => return self.lower_expr(&ts.expr).map(|expr| expr.kind),
            Expr::TsInstantiation(ts) => return self.lower_expr(&ts.expr).map(|expr| expr.kind),
            Expr::TaggedTpl(tagged) => {
                return Err(self.unsupported("tagged templates are not supported", tagged.span));
            }
            Expr::Class(class) => {
                return Err(self.unsupported("class expressions are not supported", class.class.span));
            }
            Expr::Yield(yield_expr) => {
                return Err(self.unsupported("generators (`yield`) are not supported", yield_expr.span));
            }
            Expr::MetaProp(meta) => {
                let what = match meta.kind {
                    ast::MetaPropKind::NewTarget => "`new.target` is not supported",
                    ast::MetaPropKind::ImportMeta => "`import.meta` is not supported",
                };
                return Err(self.unsupported(what, meta.span));
            }
            Expr::SuperProp(sup) => return Err(self.unsupported("`super` is not supported", sup.span)),
            Expr::PrivateName(private) => {
                return Err(self.unsupported("private names (`#name`) are not supported", private.span));
            }
            Expr::JSXMember(_)
            | Expr::JSXNamespacedName(_)
            | Expr::JSXEmpty(_)
            | Expr::JSXElement(_)
            | Expr::JSXFragment(_) => return Err(self.unsupported("JSX is not supported", expr.span())),
            Expr::Invalid(invalid) => return Err(self.parse_error("Invalid expression", invalid.span)),
        })
    }

    pub(crate) fn lower_exprs<'e>(
        &mut self,
        exprs: impl Iterator<Item = &'e Expr>,
    ) -> LowerResult<Vec<ir::Expr>> {
        let mut lowered = Vec::new();
        for expr in exprs {
            lowered.push(self.lower_expr(expr)?);
        }
        Ok(lowered)
    }

    fn lower_arg(&mut self, arg: &ExprOrSpread) -> LowerResult<ArrayElem> {
        let expr = self.lower_expr(&arg.expr)?;
        Ok(if arg.spread.is_some() { ArrayElem::Spread(expr) } else { ArrayElem::Item(expr) })
    }

    fn lower_args(&mut self, args: &[ExprOrSpread]) -> LowerResult<Vec<ArrayElem>> {
        let mut lowered = Vec::with_capacity(args.len());
        for arg in args {
            lowered.push(self.lower_arg(arg)?);
        }
        Ok(lowered)
    }

    /// `this`: read directly in a non-arrow function; in an arrow, a capture of the enclosing
    /// function's synthetic `this` binding.
    fn this_expr(&mut self) -> ExprKind {
        let mut chain = self.chain();
        let level = chain.this_level();
        match chain.captured_this(level) {
            Some(var) => ExprKind::Var { var, check_tdz: false },
            None => ExprKind::This,
        }
    }

    pub(crate) fn ident_expr(&mut self, ident: &ast::Ident) -> ExprKind {
        let resolved = self.chain().resolve(ident.sym.as_str());
        match &resolved.var {
            // Non-writable globals: constants, unless a program binding shadows them (then the
            // name resolved to that binding instead).
            VarRef::Global(name) if name == "undefined" => ExprKind::Undefined,
            VarRef::Global(name) if name == "NaN" => ExprKind::Number(f64::NAN),
            VarRef::Global(name) if name == "Infinity" => ExprKind::Number(f64::INFINITY),
            _ => ExprKind::Var { var: resolved.var, check_tdz: resolved.check_tdz },
        }
    }

    fn literal(&self, lit: &Lit) -> LowerResult<ExprKind> {
        Ok(match lit {
            Lit::Str(string) => ExprKind::String(string.value.to_atom_lossy().to_string()),
            Lit::Bool(boolean) => ExprKind::Bool(boolean.value),
            Lit::Null(_) => ExprKind::Null,
            Lit::Num(number) => ExprKind::Number(number.value),
            Lit::Regex(regex) => {
                ExprKind::Regex { pattern: regex.exp.to_string(), flags: regex.flags.to_string() }
            }
            Lit::BigInt(big) => return Err(self.unsupported("BigInt literals are not supported", big.span)),
            Lit::JSXText(text) => return Err(self.unsupported("JSX is not supported", text.span)),
        })
    }

    fn object_prop(&mut self, prop: &PropOrSpread) -> LowerResult<ObjectProp> {
        let prop = match prop {
            PropOrSpread::Spread(spread) => return Ok(ObjectProp::Spread(self.lower_expr(&spread.expr)?)),
            PropOrSpread::Prop(prop) => &**prop,
        };
        Ok(match prop {
            Prop::Shorthand(ident) => ObjectProp::KeyValue {
                key: PropKey::Named(ident.sym.to_string()),
                value: ir::Expr { kind: self.ident_expr(ident), span: self.span(ident.span) },
            },
            Prop::KeyValue(kv) => {
                let key = self.prop_key(&kv.key)?;
                let value = self.lower_named_expr(&kv.value, key_name(&key))?;
                ObjectProp::KeyValue { key, value }
            }
            Prop::Method(method) => {
                let key = self.prop_key(&method.key)?;
                let span = self.span(method.function.span);
                let name = key_name(&key).map(str::to_owned);
                let id = self.lower_function(FunctionSource::from_function(name, None, &method.function))?;
                ObjectProp::KeyValue { key, value: ir::Expr { kind: ExprKind::Function(id), span } }
            }
            Prop::Getter(getter) => {
                let key = self.prop_key(&getter.key)?;
                let name = key_name(&key).map(|name| format!("get {name}"));
                let function =
                    self.lower_function(FunctionSource::from_function(name, None, &getter.function))?;
                ObjectProp::Getter { key, function }
            }
            Prop::Setter(setter) => {
                let key = self.prop_key(&setter.key)?;
                let name = key_name(&key).map(|name| format!("set {name}"));
                let function =
                    self.lower_function(FunctionSource::from_function(name, None, &setter.function))?;
                ObjectProp::Setter { key, function }
            }
            Prop::Assign(assign) => {
                return Err(self.parse_error("Invalid shorthand property initializer", assign.span));
            }
        })
    }

    pub(crate) fn prop_key(&mut self, key: &PropName) -> LowerResult<PropKey> {
        Ok(match key {
            PropName::Ident(ident) => PropKey::Named(ident.sym.to_string()),
            PropName::Str(string) => PropKey::Named(string.value.to_atom_lossy().to_string()),
            PropName::Num(number) => PropKey::Named(js_number_to_string(number.value)),
            PropName::Computed(computed) => PropKey::Computed(Box::new(self.lower_expr(&computed.expr)?)),
            PropName::BigInt(big) => {
                return Err(self.unsupported("BigInt literals are not supported", big.span));
            }
        })
    }

    pub(crate) fn member_property(&mut self, prop: &MemberProp) -> LowerResult<Property> {
        Ok(match prop {
            MemberProp::Ident(ident) => Property::Named(ident.sym.to_string()),
            MemberProp::Computed(computed) => Property::Computed(self.lower_expr(&computed.expr)?),
            MemberProp::PrivateName(private) => {
                return Err(self.unsupported("private names (`#name`) are not supported", private.span));
            }
        })
    }

    /// `object.property`; inside an optional chain, the object continues the same chain.
    fn member(&mut self, member: &ast::MemberExpr, optional: bool, in_chain: bool) -> LowerResult<ExprKind> {
        let object = if in_chain { self.chain_part(&member.obj)? } else { self.lower_expr(&member.obj)? };
        let property = self.member_property(&member.prop)?;
        Ok(ExprKind::Member { object: Box::new(object), property: Box::new(property), optional })
    }

    /// One link of an optional chain (swc makes every link after the first `?.` an
    /// `OptChainExpr`; only the outermost one is wrapped in `OptionalChain`).
    fn chain_link(&mut self, chain: &OptChainExpr) -> LowerResult<ir::Expr> {
        self.enter(chain.span)?;
        let kind = match &*chain.base {
            OptChainBase::Member(member) => self.member(member, chain.optional, true)?,
            OptChainBase::Call(call) => ExprKind::Call {
                callee: Box::new(self.chain_part(&call.callee)?),
                args: self.lower_args(&call.args)?,
                optional: chain.optional,
            },
        };
        self.leave();
        Ok(ir::Expr { kind, span: self.span(chain.span) })
    }

    /// The object or callee of a chain link: more links of the same chain, or where it starts.
    fn chain_part(&mut self, expr: &Expr) -> LowerResult<ir::Expr> {
        match expr {
            Expr::OptChain(chain) => self.chain_link(chain),
            // `a?.b!.c` is one chain with a TypeScript assertion in the middle.
            Expr::TsNonNull(ts) if matches!(&*ts.expr, Expr::OptChain(_)) => self.chain_part(&ts.expr),
            _ => self.lower_expr(expr),
        }
    }

    fn unary(&mut self, unary: &ast::UnaryExpr) -> LowerResult<ExprKind> {
        let op = match unary.op {
            ast::UnaryOp::Minus => UnaryOp::Minus,
            ast::UnaryOp::Plus => UnaryOp::Plus,
            ast::UnaryOp::Bang => UnaryOp::Not,
            ast::UnaryOp::Tilde => UnaryOp::BitNot,
            ast::UnaryOp::Void => UnaryOp::Void,
            ast::UnaryOp::TypeOf => {
                // `typeof missingGlobal` is "undefined", not a ReferenceError.
                if let Expr::Ident(ident) = strip_parens_and_types(&unary.arg)
                    && let ExprKind::Var { var: VarRef::Global(name), .. } = self.ident_expr(ident)
                {
                    return Ok(ExprKind::TypeofGlobal(name));
                }
                UnaryOp::Typeof
            }
            ast::UnaryOp::Delete => return self.delete(unary),
        };
        Ok(ExprKind::Unary { op, arg: Box::new(self.lower_expr(&unary.arg)?) })
    }

    fn delete(&mut self, unary: &ast::UnaryExpr) -> LowerResult<ExprKind> {
        match strip_parens_and_types(&unary.arg) {
            Expr::Member(member) => Ok(ExprKind::Delete {
                object: Box::new(self.lower_expr(&member.obj)?),
                property: Box::new(self.member_property(&member.prop)?),
            }),
            Expr::OptChain(_) => {
                Err(self.unsupported("`delete` of an optional chain is not supported", unary.span))
            }
            Expr::Ident(ident) => {
                Err(self.parse_error("Delete of an unqualified identifier in strict mode.", ident.span))
            }
            Expr::SuperProp(sup) => Err(self.unsupported("`super` is not supported", sup.span)),
            // `delete 1`, `delete f()`: evaluates the operand, then is `true`.
            other => {
                let span = self.span(unary.span);
                let arg = self.lower_expr(other)?;
                Ok(ExprKind::Sequence(vec![arg, ir::Expr { kind: ExprKind::Bool(true), span }]))
            }
        }
    }
}

/// A function source for an arrow expression.
pub(crate) fn arrow_source(arrow: &ast::ArrowExpr, name: Option<String>) -> FunctionSource<'_> {
    FunctionSource {
        name,
        self_name: None,
        is_arrow: true,
        is_async: arrow.is_async,
        is_generator: arrow.is_generator,
        params: arrow.params.iter().collect(),
        has_param_decorators: false,
        body: match &*arrow.body {
            ArrowFunctionBody::FunctionBody(body) => FunctionBodySource::Block(&body.stmts),
            ArrowFunctionBody::Expr(expr) => FunctionBodySource::Expr(expr),
        },
        span: arrow.span,
    }
}

/// Removes parentheses and TypeScript-only wrappers, without recursion.
pub(crate) fn strip_parens_and_types(expr: &Expr) -> &Expr {
    let mut expr = expr;
    loop {
        expr = match expr {
            Expr::Paren(inner) => &inner.expr,
            Expr::TsAs(inner) => &inner.expr,
            Expr::TsNonNull(inner) => &inner.expr,
            Expr::TsSatisfies(inner) => &inner.expr,
            Expr::TsTypeAssertion(inner) => &inner.expr,
            Expr::TsConstAssertion(inner) => &inner.expr,
            Expr::TsInstantiation(inner) => &inner.expr,
            _ => return expr,
        };
    }
}

fn key_name(key: &PropKey) -> Option<&str> {
    match key {
        PropKey::Named(name) => Some(name),
        PropKey::Computed(_) => None,
    }
}

pub(crate) enum Operator {
    Binary(BinaryOp),
    Logical(LogicalOp),
}

pub(crate) fn binary_op(op: ast::BinaryOp) -> Operator {
    use ast::BinaryOp as Ast;
    Operator::Binary(match op {
        Ast::EqEq => BinaryOp::Eq,
        Ast::NotEq => BinaryOp::NotEq,
        Ast::EqEqEq => BinaryOp::StrictEq,
        Ast::NotEqEq => BinaryOp::StrictNotEq,
        Ast::Lt => BinaryOp::Lt,
        Ast::LtEq => BinaryOp::LtEq,
        Ast::Gt => BinaryOp::Gt,
        Ast::GtEq => BinaryOp::GtEq,
        Ast::LShift => BinaryOp::Shl,
        Ast::RShift => BinaryOp::Shr,
        Ast::ZeroFillRShift => BinaryOp::UShr,
        Ast::Add => BinaryOp::Add,
        Ast::Sub => BinaryOp::Sub,
        Ast::Mul => BinaryOp::Mul,
        Ast::Div => BinaryOp::Div,
        Ast::Mod => BinaryOp::Rem,
        Ast::BitOr => BinaryOp::BitOr,
        Ast::BitXor => BinaryOp::BitXor,
        Ast::BitAnd => BinaryOp::BitAnd,
        Ast::In => BinaryOp::In,
        Ast::InstanceOf => BinaryOp::InstanceOf,
        Ast::Exp => BinaryOp::Exp,
        Ast::LogicalOr => return Operator::Logical(LogicalOp::Or),
        Ast::LogicalAnd => return Operator::Logical(LogicalOp::And),
        Ast::NullishCoalescing => return Operator::Logical(LogicalOp::Nullish),
    })
}

/// JavaScript's `Number.prototype.toString()` for property keys (`{ 1.50: x }` has key `"1.5"`,
/// `{ 1e21: x }` has key `"1e+21"`).
pub fn js_number_to_string(value: f64) -> String {
    if value.is_nan() {
        return "NaN".into();
    }
    if value == 0.0 {
        return "0".into();
    }
    if value.is_infinite() {
        return if value > 0.0 { "Infinity".into() } else { "-Infinity".into() };
    }
    if value < 0.0 {
        return format!("-{}", js_number_to_string(-value));
    }
    // Rust's `{:e}` prints the shortest digits that round-trip, as JavaScript requires.
    let formatted = format!("{value:e}");
    let (mantissa, exponent) = formatted.split_once('e').unwrap_or((&formatted, "0"));
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let exponent: i64 = exponent.parse().unwrap_or(0);
    let k = digits.len() as i64;
    let n = exponent + 1;
    if k <= n && n <= 21 {
        format!("{digits}{}", "0".repeat((n - k) as usize))
    } else if 0 < n && n <= 21 {
        let (int, frac) = digits.split_at(n as usize);
        format!("{int}.{frac}")
    } else if -6 < n && n <= 0 {
        format!("0.{}{digits}", "0".repeat((-n) as usize))
    } else {
        let sign = if n > 0 { "+" } else { "-" };
        let (first, rest) = digits.split_at(1);
        let fraction = if rest.is_empty() { String::new() } else { format!(".{rest}") };
        format!("{first}{fraction}e{sign}{}", (n - 1).abs())
    }
}

#[cfg(test)]
mod tests {
    use super::js_number_to_string;

    #[test]
    fn numbers_format_like_javascript() {
        let cases = [
            (1.0, "1"),
            (1.5, "1.5"),
            (-2.25, "-2.25"),
            (100.0, "100"),
            (1e21, "1e+21"),
            (1e20, "100000000000000000000"),
            (0.000001, "0.000001"),
            (1e-7, "1e-7"),
            (1.25e-7, "1.25e-7"),
            (123456789.125, "123456789.125"),
            (0.1, "0.1"),
            (f64::NAN, "NaN"),
            (f64::NEG_INFINITY, "-Infinity"),
        ];
        for (value, expected) in cases {
            assert_eq!(js_number_to_string(value), expected);
        }
    }
}
