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

use super::scope::Access;
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
        match (name, strip_parens(expr)) {
            (Some(name), function @ Expr::Fn(ast::FnExpr { ident: None, .. })) => {
                self.named_function(function, name)
            }
            (Some(name), arrow @ Expr::Arrow(_)) => self.named_function(arrow, name),
            (Some(name), Expr::Class(class)) => {
                let kind = self.class_expr(class, Some(name))?;
                Ok(ir::Expr { kind, span: self.span(expr.span()) })
            }
            _ => self.lower_expr(expr),
        }
    }

    fn named_function(&mut self, expr: &Expr, name: &str) -> LowerResult<ir::Expr> {
        let source = match expr {
            Expr::Fn(function) => {
                FunctionSource::from_function(Some(name.to_owned()), None, &function.function)
            }
            Expr::Arrow(arrow) => arrow_source(arrow, Some(name.to_owned())),
            _ => return self.lower_expr(expr),
        };
        let id = self.lower_function(source)?;
        Ok(ir::Expr { kind: ExprKind::Function(id), span: self.span(expr.span()) })
    }

    /// Dispatches on the expression kind. Every arm is a tail call into a function of its own:
    /// in debug builds a `match` with the arms' code inline reserves stack for all arms at once,
    /// and this function is on the stack once per nesting level.
    fn lower_expr_kind(&mut self, expr: &Expr) -> LowerResult<ExprKind> {
        match expr {
            Expr::This(_) => Ok(self.this_expr()),
            Expr::Ident(ident) => {
                self.check_identifier(ident)?;
                Ok(self.ident_expr(ident))
            }
            Expr::Lit(lit) => self.literal(lit),
            Expr::Tpl(tpl) => self.template(tpl),
            Expr::Array(array) => self.array(array),
            Expr::Object(object) => self.object(object),
            Expr::Fn(function) => self.function_expr(function),
            Expr::Arrow(arrow) => self.lower_function(arrow_source(arrow, None)).map(ExprKind::Function),
            Expr::Unary(unary) => self.unary(unary),
            Expr::Update(update) => self.update(update),
            Expr::Bin(bin) => self.binary(bin),
            Expr::Assign(assign) => self.assign(assign),
            Expr::Member(member) => self.member(member, false, false),
            Expr::Cond(cond) => self.conditional(cond),
            Expr::Call(call) => self.call(call),
            Expr::New(new) => self.new_expr(new),
            Expr::Seq(seq) => self.lower_exprs(seq.exprs.iter().map(|expr| &**expr)).map(ExprKind::Sequence),
            Expr::Await(await_expr) => self.await_expr(await_expr),
            Expr::Yield(yield_expr) => {
                self.check_await_yield(false, yield_expr.span)?;
                let arg = match &yield_expr.arg {
                    Some(arg) => Some(Box::new(self.lower_expr(arg)?)),
                    None => None,
                };
                Ok(ExprKind::Yield { arg, delegate: yield_expr.delegate })
            }
            Expr::OptChain(chain) => self.optional_chain(chain),
            Expr::Class(class) => self.class_expr(class, None),
            Expr::TaggedTpl(tagged) => self.tagged_template(tagged),
            Expr::SuperProp(sup) => self.super_member(sup),
            Expr::MetaProp(meta) if meta.kind == ast::MetaPropKind::NewTarget => self.new_target(meta.span),
            // Parentheses and TypeScript-only wrappers: the inner expression is the value. The
            // stripped expression is none of these, so this recursion is one level deep.
            Expr::Paren(_)
            | Expr::TsAs(_)
            | Expr::TsNonNull(_)
            | Expr::TsSatisfies(_)
            | Expr::TsTypeAssertion(_)
            | Expr::TsConstAssertion(_)
            | Expr::TsInstantiation(_) => self.lower_expr_kind(strip_parens_and_types(expr)),
            _ => Err(self.unsupported_expr(expr)),
        }
    }

    /// The diagnostic for an expression kind the runtime does not implement.
    fn unsupported_expr(&self, expr: &Expr) -> super::LowerError {
        let what = match expr {
            Expr::TaggedTpl(_) => {
                "tagged templates are not supported; call the function with arguments instead"
            }
            Expr::Class(_) => "class expressions are not supported; use object literals and functions",
            Expr::MetaProp(meta) => match meta.kind {
                ast::MetaPropKind::NewTarget => "`new.target` is not supported",
                ast::MetaPropKind::ImportMeta => "`import.meta` is not supported",
            },
            Expr::SuperProp(_) => "`super` is not supported",
            // Valid only before `in` (`#x in o`) and after a dot, which are lowered elsewhere.
            Expr::PrivateName(name) => {
                return self.early(super::early_errors::Rule::LonePrivateName, name.name.as_str(), name.span);
            }
            Expr::JSXMember(_)
            | Expr::JSXNamespacedName(_)
            | Expr::JSXEmpty(_)
            | Expr::JSXElement(_)
            | Expr::JSXFragment(_) => "JSX is not supported",
            _ => return self.parse_error("Invalid expression", expr.span()),
        };
        self.unsupported(what, expr.span())
    }

    /// ``tag`a${x}b` `` as `tag(strings, x)`, where `strings` is the array of cooked strings
    /// (`undefined` where an escape is invalid) with the raw strings as its `raw` property. (A
    /// new array per evaluation: JavaScript reuses one per call site, which only identity shows.)
    fn tagged_template(&mut self, tagged: &ast::TaggedTpl) -> LowerResult<ExprKind> {
        let span = self.span(tagged.span);
        let at = |kind: ExprKind| ir::Expr { kind, span };
        let callee = self.lower_expr(&tagged.tag)?;
        let scope = self.func.scopes.len().saturating_sub(1);
        let strings = VarRef::Local(self.func.add_var(scope, "%strings", crate::ir::VarKind::Temp, false));
        let cooked = tagged
            .tpl
            .quasis
            .iter()
            .map(|quasi| {
                ArrayElem::Item(at(match &quasi.cooked {
                    Some(cooked) => ExprKind::String(cooked.to_atom_lossy().to_string()),
                    None => ExprKind::Undefined,
                }))
            })
            .collect();
        let raw = tagged
            .tpl
            .quasis
            .iter()
            .map(|quasi| ArrayElem::Item(at(ExprKind::String(quasi.raw.to_string()))))
            .collect();
        let read = at(ExprKind::Var { var: strings.clone(), check_tdz: false });
        let strings_value = ExprKind::Sequence(vec![
            at(ExprKind::Assign {
                op: None,
                target: Box::new(ir::Pattern::Var(strings.clone())),
                value: Box::new(at(ExprKind::Array(cooked))),
            }),
            at(ExprKind::Assign {
                op: None,
                target: Box::new(ir::Pattern::Member {
                    object: Box::new(read.clone()),
                    property: Box::new(Property::Named("raw".into())),
                }),
                value: Box::new(at(ExprKind::Array(raw))),
            }),
            read,
        ]);
        let mut args = vec![ArrayElem::Item(at(strings_value))];
        for expr in &tagged.tpl.exprs {
            args.push(ArrayElem::Item(self.lower_expr(expr)?));
        }
        Ok(ExprKind::Call { callee: Box::new(callee), args, optional: false })
    }

    fn template(&mut self, tpl: &ast::Tpl) -> LowerResult<ExprKind> {
        self.check_template(tpl)?;
        let quasis = tpl
            .quasis
            .iter()
            .map(|quasi| match &quasi.cooked {
                Some(cooked) => cooked.to_atom_lossy().to_string(),
                None => quasi.raw.to_string(),
            })
            .collect();
        let exprs = self.lower_exprs(tpl.exprs.iter().map(|expr| &**expr))?;
        Ok(ExprKind::Template { quasis, exprs })
    }

    fn array(&mut self, array: &ast::ArrayLit) -> LowerResult<ExprKind> {
        let mut elems = Vec::with_capacity(array.elems.len());
        for elem in &array.elems {
            elems.push(match elem {
                Some(elem) => self.lower_arg(elem)?,
                None => ArrayElem::Hole,
            });
        }
        Ok(ExprKind::Array(elems))
    }

    fn object(&mut self, object: &ast::ObjectLit) -> LowerResult<ExprKind> {
        self.check_object_literal(object)?;
        let mut props = Vec::with_capacity(object.props.len());
        for prop in &object.props {
            props.push(self.object_prop(prop)?);
        }
        Ok(ExprKind::Object(props))
    }

    fn function_expr(&mut self, function: &ast::FnExpr) -> LowerResult<ExprKind> {
        let name = function.ident.as_ref().map(|ident| ident.sym.to_string());
        let source = FunctionSource::from_function(name.clone(), name, &function.function);
        self.lower_function(source).map(ExprKind::Function)
    }

    fn binary(&mut self, bin: &ast::BinExpr) -> LowerResult<ExprKind> {
        if let (Expr::PrivateName(name), ast::BinaryOp::In) = (&*bin.left, bin.op) {
            return self.private_in(name, &bin.right);
        }
        let left = Box::new(self.lower_expr(&bin.left)?);
        let right = Box::new(self.lower_expr(&bin.right)?);
        Ok(match binary_op(bin.op) {
            Operator::Binary(op) => ExprKind::Binary { op, left, right },
            Operator::Logical(op) => ExprKind::Logical { op, left, right },
        })
    }

    fn conditional(&mut self, cond: &ast::CondExpr) -> LowerResult<ExprKind> {
        let test = Box::new(self.lower_expr(&cond.test)?);
        let then = Box::new(self.lower_expr(&cond.cons)?);
        let otherwise = Box::new(self.lower_expr(&cond.alt)?);
        Ok(ExprKind::Conditional { test, then, otherwise })
    }

    fn call(&mut self, call: &ast::CallExpr) -> LowerResult<ExprKind> {
        let callee = match &call.callee {
            Callee::Expr(callee) => self.lower_expr(callee)?,
            Callee::Super(_) => return self.super_call(call, call.span),
            // `import(name)`: a promise of the extension module the host mapped (the hidden
            // global cannot be shadowed: it is referenced directly).
            Callee::Import(_) => {
                self.check_import_call(call)?;
                ir::Expr {
                    kind: ExprKind::Var {
                        var: VarRef::Global(crate::IMPORT_GLOBAL.into()),
                        check_tdz: false,
                    },
                    span: self.span(call.span),
                }
            }
        };
        let args = self.lower_args(&call.args)?;
        Ok(ExprKind::Call { callee: Box::new(callee), args, optional: false })
    }

    fn new_expr(&mut self, new: &ast::NewExpr) -> LowerResult<ExprKind> {
        self.check_new_callee(new)?;
        let callee = Box::new(self.lower_expr(&new.callee)?);
        let args = match &new.args {
            Some(args) => self.lower_args(args)?,
            None => Vec::new(),
        };
        Ok(ExprKind::New { callee, args })
    }

    fn await_expr(&mut self, await_expr: &ast::AwaitExpr) -> LowerResult<ExprKind> {
        self.check_await_yield(true, await_expr.span)?;
        Ok(ExprKind::Await(Box::new(self.lower_expr(&await_expr.arg)?)))
    }

    fn optional_chain(&mut self, chain: &OptChainExpr) -> LowerResult<ExprKind> {
        Ok(ExprKind::OptionalChain(Box::new(self.chain_link(chain)?)))
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

    pub(crate) fn lower_args(&mut self, args: &[ExprOrSpread]) -> LowerResult<Vec<ArrayElem>> {
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
        let resolved = self.chain().resolve(ident.sym.as_str(), Access::Read);
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
            Lit::Str(string) => {
                self.check_string(string)?;
                ExprKind::String(string.value.to_atom_lossy().to_string())
            }
            Lit::Bool(boolean) => ExprKind::Bool(boolean.value),
            Lit::Null(_) => ExprKind::Null,
            Lit::Num(number) => ExprKind::Number(number.value),
            Lit::Regex(regex) => {
                self.check_regex_literal(regex)?;
                let (pattern, flags) = (regex.exp.to_string(), regex.flags.to_string());
                // An invalid literal is an early error, as in JavaScript: the program never runs.
                let source = if pattern.is_empty() { "(?:)" } else { pattern.as_str() };
                if let Err(reason) = codemode_ir::regex::check_flags(&flags)
                    .and_then(|()| codemode_ir::regex::compile(source, &flags).map(drop))
                {
                    let message = codemode_ir::regex::error_message(&pattern, &flags, &reason);
                    return Err(self.parse_error(message, regex.span));
                }
                ExprKind::Regex { pattern, flags }
            }
            // swc has parsed every radix and separator: the value travels as decimal text.
            Lit::BigInt(big) => ExprKind::BigInt(big.value.to_string()),
            Lit::JSXText(text) => return Err(self.unsupported("JSX is not supported", text.span)),
        })
    }

    fn object_prop(&mut self, prop: &PropOrSpread) -> LowerResult<ObjectProp> {
        let prop = match prop {
            PropOrSpread::Spread(spread) => return self.lower_expr(&spread.expr).map(ObjectProp::Spread),
            PropOrSpread::Prop(prop) => &**prop,
        };
        match prop {
            Prop::Shorthand(ident) => Ok(ObjectProp::KeyValue {
                key: PropKey::Named(ident.sym.to_string()),
                value: ir::Expr { kind: self.ident_expr(ident), span: self.span(ident.span) },
            }),
            Prop::KeyValue(kv) => self.key_value_prop(kv),
            Prop::Method(method) => {
                let function = &method.function;
                self.check_method_prefix(function.span.lo, method.key.span(), function.is_async)?;
                self.accessor_prop(&method.key, function, Accessor::Method)
            }
            Prop::Getter(getter) => {
                self.check_method_prefix(getter.span.lo, getter.key.span(), false)?;
                self.accessor_prop(&getter.key, &getter.function, Accessor::Getter)
            }
            Prop::Setter(setter) => {
                self.check_method_prefix(setter.span.lo, setter.key.span(), false)?;
                self.accessor_prop(&setter.key, &setter.function, Accessor::Setter)
            }
            Prop::Assign(assign) => {
                Err(self.parse_error("Invalid shorthand property initializer", assign.span))
            }
        }
    }

    fn key_value_prop(&mut self, kv: &ast::KeyValueProp) -> LowerResult<ObjectProp> {
        let key = self.prop_key(&kv.key)?;
        // `__proto__: v` (an identifier or string key, not computed) sets the prototype.
        if matches!(&kv.key, PropName::Ident(_) | PropName::Str(_)) && key_name(&key) == Some("__proto__") {
            return Ok(ObjectProp::Proto(self.lower_expr(&kv.value)?));
        }
        let value = self.lower_named_expr(&kv.value, key_name(&key))?;
        Ok(ObjectProp::KeyValue { key, value })
    }

    /// A method, getter or setter: its function is named after the key (`get x` for getters).
    fn accessor_prop(
        &mut self,
        key: &PropName,
        function: &ast::Function,
        accessor: Accessor,
    ) -> LowerResult<ObjectProp> {
        let key = self.prop_key(key)?;
        let name = key_name(&key).map(|name| match accessor {
            Accessor::Method => name.to_owned(),
            Accessor::Getter => format!("get {name}"),
            Accessor::Setter => format!("set {name}"),
        });
        let mut source = FunctionSource::from_function(name, None, function);
        source.is_method = true;
        let id = self.lower_function(source)?;
        Ok(match accessor {
            Accessor::Method => ObjectProp::KeyValue {
                key,
                value: ir::Expr { kind: ExprKind::Function(id), span: self.span(function.span) },
            },
            Accessor::Getter => ObjectProp::Getter { key, function: id },
            Accessor::Setter => ObjectProp::Setter { key, function: id },
        })
    }

    pub(crate) fn prop_key(&mut self, key: &PropName) -> LowerResult<PropKey> {
        Ok(match key {
            PropName::Ident(ident) => PropKey::Named(ident.sym.to_string()),
            PropName::Str(string) => {
                self.check_string(string)?;
                PropKey::Named(string.value.to_atom_lossy().to_string())
            }
            PropName::Num(number) => PropKey::Named(js_number_to_string(number.value)),
            PropName::Computed(computed) => PropKey::Computed(Box::new(self.lower_expr(&computed.expr)?)),
            // `{1n: x}` is the key "1".
            PropName::BigInt(big) => PropKey::Named(big.value.to_string()),
        })
    }

    pub(crate) fn member_property(&mut self, prop: &MemberProp) -> LowerResult<Property> {
        Ok(match prop {
            MemberProp::Ident(ident) => Property::Named(ident.sym.to_string()),
            MemberProp::Computed(computed) => Property::Computed(self.lower_expr(&computed.expr)?),
            MemberProp::PrivateName(private) => self.private_property(private)?,
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
        // A negative number literal is a constant (`-2`, `-Infinity` stays an operation).
        if unary.op == ast::UnaryOp::Minus
            && let Expr::Lit(Lit::Num(number)) = &*unary.arg
        {
            return Ok(ExprKind::Number(-number.value));
        }
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
            Expr::Member(member) => {
                self.check_delete(member)?;
                Ok(ExprKind::Delete {
                    object: Box::new(self.lower_expr(&member.obj)?),
                    property: Box::new(self.member_property(&member.prop)?),
                })
            }
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
        is_method: false,
        has_param_decorators: false,
        body: match &*arrow.body {
            ArrowFunctionBody::FunctionBody(body) => FunctionBodySource::Block(&body.stmts),
            ArrowFunctionBody::Expr(expr) => FunctionBodySource::Expr(expr),
        },
        span: arrow.span,
    }
}

/// Removes parentheses, without recursion.
fn strip_parens(expr: &Expr) -> &Expr {
    let mut expr = expr;
    while let Expr::Paren(inner) = expr {
        expr = &inner.expr;
    }
    expr
}

#[derive(Clone, Copy)]
enum Accessor {
    Method,
    Getter,
    Setter,
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

pub(crate) fn key_name(key: &PropKey) -> Option<&str> {
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

pub use codemode_ir::number_to_string as js_number_to_string;
