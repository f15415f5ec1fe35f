//! Classes: `class` declarations and expressions → [`ir::ClassDef`].
//!
//! A class lowers to its constructor (written or synthesized), its methods and accessors, one
//! synthetic method that defines the instance fields (run by the VM on each new instance), and
//! synthetic static initializers run once with the class as `this`. Two synthetic bindings tie
//! them together: the class itself, which `super.x` in methods starts from (the [`Home`]), and,
//! for a named class expression, its inner name.
//!
//! Private names (`#x`) are renamed to a key unique to the class (`#x`, a NUL, the class's
//! number), so two classes' `#x` never meet; a `#x` no enclosing class declares is the early
//! error JavaScript reports.

use std::collections::HashMap;

use swc_common::Spanned;
use swc_ecma_ast::{self as ast, Pat};

use super::scope::{Access, Home, ScopeKind};
use super::{FunctionBodySource, FunctionSource, LowerResult, Lowerer};
use crate::ir::{self, ClassKind, ExprKind, MethodKind, PropKey, Property, VarKind, VarRef};

/// What the next lowered function is, when the class lowering asks for one.
pub(crate) struct MethodSetup {
    pub home: Option<Home>,
    pub class_kind: ClassKind,
    pub param_props: Vec<String>,
}

/// A class whose body is being lowered.
pub(crate) struct ClassScope {
    private_names: HashMap<String, String>,
    /// Computed field names, evaluated (and converted to property keys) once, when the class is
    /// defined, into bindings its initializers read: `%keyN.i = \`${expr}\``.
    field_keys: Vec<ir::Expr>,
}

/// A field or static block, in source order.
enum Initializer<'a> {
    /// `temp` names the binding holding a computed name (then `key` is unused).
    Field {
        key: Property,
        temp: Option<String>,
        value: Option<&'a ast::Expr>,
        name: Option<String>,
        span: swc_common::Span,
    },
    Method {
        key: Property,
        function: &'a ast::Function,
        kind: MethodKind,
        span: swc_common::Span,
    },
    Block(&'a ast::StaticBlock),
}

impl<'a> Lowerer<'a> {
    /// `class Name extends Parent { .. }`; `name` is the binding's name (for `.name`), `inner`
    /// the name visible inside the class (named class expressions).
    pub(crate) fn lower_class(
        &mut self,
        class: &ast::Class,
        name: Option<String>,
        inner: Option<&ast::Ident>,
    ) -> LowerResult<ExprKind> {
        if let Some(decorator) = class.decorators.first() {
            return Err(self.unsupported("decorators are not supported", decorator.span));
        }
        let parent = match &class.super_class {
            Some(parent) => Some(self.lower_expr(parent)?),
            None => None,
        };
        // The class's bindings live in the enclosing block; a named class expression's own name
        // is visible only in its body (a scope opened around it).
        let outer_scope = self.func.scopes.len().saturating_sub(1);
        let home_var = self.func.add_var(outer_scope, "%class", VarKind::Temp, false);
        let level = self.outer.len();
        let mut bindings = vec![VarRef::Local(home_var)];
        self.func.scopes.push(super::scope::Scope::new(ScopeKind::Block));
        if let Some(inner) = inner {
            let scope = self.func.scopes.len() - 1;
            let var = self.func.add_var(scope, inner.sym.as_str(), VarKind::Temp, true);
            bindings.push(VarRef::Local(var));
        }
        self.class_count += 1;
        let number = self.class_count;
        let mut private_names = HashMap::new();
        for member in &class.body {
            let key = match member {
                ast::ClassMember::PrivateProp(prop) => &prop.key,
                ast::ClassMember::PrivateMethod(method) => &method.key,
                _ => continue,
            };
            private_names.insert(key.name.to_string(), format!("#{}\0{number}", key.name));
        }
        self.classes.push(ClassScope { private_names, field_keys: Vec::new() });
        let result =
            self.class_body(class, name, parent, Home { level, var: home_var, is_static: false }, bindings);
        let field_keys = self.classes.pop().map(|c| c.field_keys).unwrap_or_default();
        // Computed field names are evaluated before the class is made (JavaScript evaluates them
        // among the other computed keys, in source order; only side effects can tell).
        let result = match result {
            Ok(kind) if !field_keys.is_empty() => {
                let span = self.span(class.span);
                let mut seq = field_keys;
                seq.push(ir::Expr { kind, span });
                Ok(ExprKind::Sequence(seq))
            }
            other => other,
        };
        // The inner scope's bindings belong to the enclosing block.
        if let Some(scope) = self.func.scopes.pop()
            && let Some(outer) = self.func.scopes.last_mut()
        {
            outer.vars.extend(scope.vars);
        }
        result
    }

    fn class_body(
        &mut self,
        class: &ast::Class,
        name: Option<String>,
        parent: Option<ir::Expr>,
        home: Home,
        bindings: Vec<VarRef>,
    ) -> LowerResult<ExprKind> {
        self.check_class_members(class)?;
        let static_home = Home { is_static: true, ..home };
        let class_kind = if parent.is_some() { ClassKind::Derived } else { ClassKind::Base };
        let mut constructor = None;
        let mut members = Vec::new();
        let mut instance: Vec<Initializer<'_>> = Vec::new();
        let mut statics: Vec<Initializer<'_>> = Vec::new();
        for member in &class.body {
            match member {
                ast::ClassMember::Constructor(ctor) => {
                    if ctor.body.is_none() {
                        continue; // an overload signature
                    }
                    if constructor.is_some() {
                        return Err(self.parse_error("A class may only have one constructor", ctor.span));
                    }
                    constructor = Some(ctor);
                }
                ast::ClassMember::Method(method) => {
                    if method.function.body.is_none() {
                        continue; // abstract or an overload signature
                    }
                    if let Some(decorator) = method.function.decorators.first() {
                        return Err(self.unsupported("decorators are not supported", decorator.span));
                    }
                    let key = self.prop_key(&method.key)?;
                    let kind = method_kind(method.kind);
                    let fname = super::expr::key_name(&key).map(|n| accessor_name(n, kind));
                    let member_home = if method.is_static { static_home } else { home };
                    self.next_method = Some(MethodSetup {
                        home: Some(member_home),
                        class_kind: ClassKind::None,
                        param_props: Vec::new(),
                    });
                    let function =
                        self.lower_function(FunctionSource::from_function(fname, None, &method.function))?;
                    members.push(ir::ClassMember { key, function, is_static: method.is_static, kind });
                }
                ast::ClassMember::PrivateMethod(method) => {
                    if method.function.body.is_none() {
                        continue;
                    }
                    let key = self.private_property(&method.key)?;
                    let kind = method_kind(method.kind);
                    let init =
                        Initializer::Method { key, function: &method.function, kind, span: method.span };
                    if method.is_static { statics.push(init) } else { instance.push(init) }
                }
                ast::ClassMember::ClassProp(prop) => {
                    if prop.declare || prop.is_abstract {
                        continue;
                    }
                    if let Some(decorator) = prop.decorators.first() {
                        return Err(self.unsupported("decorators are not supported", decorator.span));
                    }
                    let (key, temp) = match self.prop_key(&prop.key)? {
                        PropKey::Named(name) => (Property::Named(name), None),
                        PropKey::Computed(expr) => {
                            (Property::Named(String::new()), Some(self.field_key(*expr)?))
                        }
                    };
                    let name = match (&key, &temp) {
                        (Property::Named(name), None) => Some(name.clone()),
                        _ => None,
                    };
                    let value = prop.value.as_deref();
                    let init = Initializer::Field { key, temp, value, name, span: prop.span };
                    if prop.is_static { statics.push(init) } else { instance.push(init) }
                }
                ast::ClassMember::PrivateProp(prop) => {
                    if let Some(decorator) = prop.decorators.first() {
                        return Err(self.unsupported("decorators are not supported", decorator.span));
                    }
                    let key = self.private_property(&prop.key)?;
                    let name = Some(format!("#{}", prop.key.name));
                    let value = prop.value.as_deref();
                    let init = Initializer::Field { key, temp: None, value, name, span: prop.span };
                    if prop.is_static { statics.push(init) } else { instance.push(init) }
                }
                ast::ClassMember::StaticBlock(block) => statics.push(Initializer::Block(block)),
                ast::ClassMember::TsIndexSignature(_) | ast::ClassMember::Empty(_) => {}
                ast::ClassMember::AutoAccessor(accessor) => {
                    return Err(self.unsupported(
                        "`accessor` class members are not supported; use a field with get/set methods",
                        accessor.span,
                    ));
                }
            }
        }
        // Private methods are installed before the fields, as JavaScript does.
        instance.sort_by_key(|init| !matches!(init, Initializer::Method { .. }));
        let span = class.span;
        let fields =
            if instance.is_empty() { None } else { Some(self.initializer_function(&instance, home, span)?) };
        let constructor = self.constructor(constructor, name, class_kind, home, span)?;
        let mut static_init = Vec::new();
        let mut group: Vec<Initializer<'_>> = Vec::new();
        for init in statics {
            match init {
                Initializer::Block(block) => {
                    if !group.is_empty() {
                        static_init.push(self.initializer_function(&group, static_home, span)?);
                        group.clear();
                    }
                    self.next_method = Some(MethodSetup {
                        home: Some(static_home),
                        class_kind: ClassKind::None,
                        param_props: Vec::new(),
                    });
                    static_init.push(self.lower_function(FunctionSource {
                        name: None,
                        self_name: None,
                        is_arrow: false,
                        is_async: false,
                        is_generator: false,
                        params: Vec::new(),
                        is_method: false,
                        has_param_decorators: false,
                        body: FunctionBodySource::Block(&block.body.stmts),
                        span: block.span,
                    })?);
                }
                init => group.push(init),
            }
        }
        if !group.is_empty() {
            static_init.push(self.initializer_function(&group, static_home, span)?);
        }
        Ok(ExprKind::Class(Box::new(ir::ClassDef {
            parent,
            constructor,
            fields,
            members,
            bindings,
            static_init,
        })))
    }

    /// The constructor as written (its TypeScript parameter properties noted), or the default
    /// one: empty, or `constructor(...args) { super(...args) }` for a derived class.
    fn constructor(
        &mut self,
        ctor: Option<&ast::Constructor>,
        name: Option<String>,
        class_kind: ClassKind,
        home: Home,
        span: swc_common::Span,
    ) -> LowerResult<ir::FuncId> {
        let Some(ctor) = ctor else {
            let body = ast::FunctionBody { span, stmts: Vec::new() };
            let default_ctor =
                ast::Function { params: Vec::new(), body: Some(body), span, ..Default::default() };
            self.next_method = Some(MethodSetup { home: Some(home), class_kind, param_props: Vec::new() });
            let id = self.lower_function(FunctionSource::from_function(name, None, &default_ctor))?;
            if class_kind == ClassKind::Derived {
                self.forward_arguments_to_super(id, span);
            }
            return Ok(id);
        };
        // Parameter properties become plain parameters here (owned patterns, borrowed below).
        let mut owned: Vec<Pat> = Vec::new();
        let mut param_props = Vec::new();
        for param in &ctor.params {
            match param {
                ast::ParamOrTsParamProp::Param(param) => {
                    if let Some(decorator) = param.decorators.first() {
                        return Err(self.unsupported("decorators are not supported", decorator.span));
                    }
                    owned.push(param.pat.clone());
                }
                ast::ParamOrTsParamProp::TsParamProp(prop) => {
                    if let Some(decorator) = prop.decorators.first() {
                        return Err(self.unsupported("decorators are not supported", decorator.span));
                    }
                    let (ident, pat) = match &prop.param {
                        ast::TsParamPropParam::Ident(ident) => (ident.id.clone(), Pat::Ident(ident.clone())),
                        ast::TsParamPropParam::Assign(assign) => match &*assign.left {
                            Pat::Ident(ident) => (ident.id.clone(), Pat::Assign(assign.clone())),
                            _ => {
                                return Err(
                                    self.parse_error("A parameter property may not be a pattern", prop.span)
                                );
                            }
                        },
                    };
                    param_props.push(ident.sym.to_string());
                    owned.push(pat);
                }
            }
        }
        self.next_method = Some(MethodSetup { home: Some(home), class_kind, param_props });
        let source = FunctionSource {
            name,
            self_name: None,
            is_arrow: false,
            is_async: false,
            is_generator: false,
            params: owned.iter().collect(),
            is_method: false,
            has_param_decorators: false,
            body: FunctionBodySource::Block(ctor.body.as_ref().map_or(&[], |body| body.stmts.as_slice())),
            span: ctor.span,
        };
        self.lower_function(source)
    }

    /// Gives the synthesized derived constructor its body: `super(...args)`.
    fn forward_arguments_to_super(&mut self, id: ir::FuncId, span: swc_common::Span) {
        let span = self.span(span);
        let Some(function) = self.functions.get_mut(id.0 as usize) else { return };
        let args = ir::VarId(u32::try_from(function.vars.len()).unwrap_or(u32::MAX));
        function.vars.push(ir::VarInfo { name: "args".into(), kind: VarKind::Param, captured: false });
        function.body.scope.push(args);
        function.rest = Some(ir::Pattern::Var(VarRef::Local(args)));
        let call = ir::Expr {
            kind: ExprKind::SuperCall(vec![ir::ArrayElem::Spread(ir::Expr {
                kind: ExprKind::Var { var: VarRef::Local(args), check_tdz: false },
                span,
            })]),
            span,
        };
        function.body.body.push(ir::Stmt { kind: ir::StmtKind::Expr(call), span });
    }

    /// A synthetic method (run with the instance or the class as `this`) that defines `inits`
    /// in order.
    fn initializer_function(
        &mut self,
        inits: &[Initializer<'_>],
        home: Home,
        span: swc_common::Span,
    ) -> LowerResult<ir::FuncId> {
        let body = ast::FunctionBody { span, stmts: Vec::new() };
        let shell = ast::Function { params: Vec::new(), body: Some(body), span, ..Default::default() };
        self.next_method =
            Some(MethodSetup { home: Some(home), class_kind: ClassKind::None, param_props: Vec::new() });
        // The empty shell gives the frame; the initializers are lowered inside it.
        self.lower_function_with(FunctionSource::from_function(None, None, &shell), |lowerer, _| {
            let mut body = Vec::new();
            for init in inits {
                let (key, value, span, kind) = match init {
                    Initializer::Field { key, temp, value, name, span } => {
                        let key = match temp {
                            Some(temp) => {
                                let var = lowerer.chain().resolve(temp, Access::Read).var;
                                let kind = ExprKind::Var { var, check_tdz: false };
                                Property::Computed(ir::Expr { kind, span: lowerer.span(*span) })
                            }
                            None => key.clone(),
                        };
                        let value = match value {
                            Some(value) => lowerer.lower_named_expr(value, name.as_deref())?,
                            None => ir::Expr { kind: ExprKind::Undefined, span: lowerer.span(*span) },
                        };
                        (key, value, *span, MethodKind::Method)
                    }
                    Initializer::Method { key, function, kind, span } => {
                        lowerer.next_method = Some(MethodSetup {
                            home: Some(home),
                            class_kind: ClassKind::None,
                            param_props: Vec::new(),
                        });
                        let name = match key {
                            Property::Private(name) => {
                                Some(accessor_name(crate::lower::class::display(name), *kind))
                            }
                            _ => None,
                        };
                        let id =
                            lowerer.lower_function(FunctionSource::from_function(name, None, function))?;
                        let value = ir::Expr { kind: ExprKind::Function(id), span: lowerer.span(*span) };
                        (key.clone(), value, *span, *kind)
                    }
                    Initializer::Block(_) => continue,
                };
                let span = lowerer.span(span);
                let define = ExprKind::DefineField { key: Box::new(key), value: Box::new(value), kind };
                body.push(ir::Stmt { kind: ir::StmtKind::Expr(ir::Expr { kind: define, span }), span });
            }
            Ok((Vec::new(), None, body))
        })
    }

    /// A binding in the class's scope that will hold the computed field name `expr` as a property
    /// key (a symbol, or else its string form), assigned before the class is made. Returns the binding's name,
    /// which no program can write (`%`).
    fn field_key(&mut self, expr: ir::Expr) -> LowerResult<String> {
        let scope = self.func.scopes.len().saturating_sub(1);
        let count = self.classes.last().map_or(0, |c| c.field_keys.len());
        let name = format!("%key{}.{count}", self.class_count);
        let var = self.func.add_var(scope, &name, VarKind::Temp, true);
        let span = expr.span;
        let key = ExprKind::PropertyKey(Box::new(expr));
        let assign = ExprKind::Assign {
            op: None,
            target: Box::new(ir::Pattern::Var(VarRef::Local(var))),
            value: Box::new(ir::Expr { kind: key, span }),
        };
        if let Some(class) = self.classes.last_mut() {
            class.field_keys.push(ir::Expr { kind: assign, span });
        }
        Ok(name)
    }

    /// `#name` as the property key of the innermost class declaring it.
    pub(crate) fn private_property(&self, name: &ast::PrivateName) -> LowerResult<Property> {
        for class in self.classes.iter().rev() {
            if let Some(key) = class.private_names.get(name.name.as_str()) {
                return Ok(Property::Private(key.clone()));
            }
        }
        Err(self.parse_error(
            format!("Private field '#{}' must be declared in an enclosing class", name.name),
            name.span,
        ))
    }

    /// `super(...args)`: only in a derived class's constructor. Its value is `this`, which the
    /// constructor's `this` binding (read by arrows inside) takes too, and TypeScript parameter
    /// properties are assigned right after.
    pub(crate) fn super_call(
        &mut self,
        call: &ast::CallExpr,
        span: swc_common::Span,
    ) -> LowerResult<ExprKind> {
        if self.func.class_kind != ClassKind::Derived {
            self.check_super_call(span)?;
            if self.func.is_arrow && self.func.home.is_some() {
                return Err(self.unsupported("`super()` inside an arrow function", span));
            }
            return Err(self.parse_error("'super' keyword unexpected here", span));
        }
        let args = self.lower_args(&call.args)?;
        let ir_span = self.span(span);
        let call = ir::Expr { kind: ExprKind::SuperCall(args), span: ir_span };
        let Some(this_var) = self.func.this_var else { return Ok(call.kind) };
        let this_ref = VarRef::Local(this_var);
        let mut seq = vec![ir::Expr {
            kind: ExprKind::Assign {
                op: None,
                target: Box::new(ir::Pattern::Var(this_ref.clone())),
                value: Box::new(call),
            },
            span: ir_span,
        }];
        seq.extend(self.param_prop_assignments(ir_span).into_iter().filter_map(|stmt| match stmt.kind {
            ir::StmtKind::Expr(e) => Some(e),
            _ => None,
        }));
        seq.push(ir::Expr { kind: ExprKind::Var { var: this_ref, check_tdz: false }, span: ir_span });
        Ok(ExprKind::Sequence(seq))
    }

    /// `this.x = x` for each TypeScript parameter property of the constructor being lowered.
    pub(crate) fn param_prop_assignments(&mut self, span: ir::Span) -> Vec<ir::Stmt> {
        let names = self.func.param_props.clone();
        names
            .into_iter()
            .map(|name| {
                let var = self.chain().resolve(&name, Access::Read).var;
                let assign = ExprKind::Assign {
                    op: None,
                    target: Box::new(ir::Pattern::Member {
                        object: Box::new(ir::Expr { kind: ExprKind::This, span }),
                        property: Box::new(Property::Named(name)),
                    }),
                    value: Box::new(ir::Expr { kind: ExprKind::Var { var, check_tdz: false }, span }),
                };
                ir::Stmt { kind: ir::StmtKind::Expr(ir::Expr { kind: assign, span }), span }
            })
            .collect()
    }

    /// `super.x` / `super[x]`: from the home object of the method being lowered.
    pub(crate) fn super_member(&mut self, sup: &ast::SuperPropExpr) -> LowerResult<ExprKind> {
        let Some(home) = self.func.home else {
            self.check_super_property(sup.span)?;
            return Err(self.unsupported("`super` outside class methods is not supported", sup.span));
        };
        let span = self.span(sup.span);
        let class = self.chain().reference_from(home.level, home.var);
        let mut object = ir::Expr { kind: ExprKind::Var { var: class, check_tdz: false }, span };
        if !home.is_static {
            object = ir::Expr {
                kind: ExprKind::Member {
                    object: Box::new(object),
                    property: Box::new(Property::Named("prototype".into())),
                    optional: false,
                },
                span,
            };
        }
        let property = match &sup.prop {
            ast::SuperProp::Ident(ident) => Property::Named(ident.sym.to_string()),
            ast::SuperProp::Computed(computed) => Property::Computed(self.lower_expr(&computed.expr)?),
        };
        Ok(ExprKind::SuperMember { home: Box::new(object), property: Box::new(property) })
    }

    /// `new.target`: in functions (not arrows, whose `new.target` is their enclosing function's).
    pub(crate) fn new_target(&mut self, span: swc_common::Span) -> LowerResult<ExprKind> {
        self.check_new_target(span)?;
        if self.func.is_arrow {
            return Err(self.unsupported("`new.target` inside an arrow function", span));
        }
        Ok(ExprKind::NewTarget)
    }

    /// `#x in object`.
    pub(crate) fn private_in(
        &mut self,
        name: &ast::PrivateName,
        object: &ast::Expr,
    ) -> LowerResult<ExprKind> {
        let Property::Private(key) = self.private_property(name)? else {
            return Err(self.parse_error("Invalid private name", name.span));
        };
        let object = Box::new(self.lower_expr(object)?);
        Ok(ExprKind::PrivateIn { name: key, object })
    }

    /// A class expression's value (`const A = class { .. }` names it `A`).
    pub(crate) fn class_expr(&mut self, class: &ast::ClassExpr, name: Option<&str>) -> LowerResult<ExprKind> {
        let own = class.ident.as_ref().map(|ident| ident.sym.to_string());
        let name = own.or_else(|| name.map(str::to_owned));
        self.lower_class(&class.class, name, class.ident.as_ref())
    }

    /// `class A { .. }` as `Bind { A, class }`.
    pub(crate) fn class_declaration(&mut self, decl: &ast::ClassDecl) -> LowerResult<ir::StmtKind> {
        let name = decl.ident.sym.to_string();
        let value = self.lower_class(&decl.class, Some(name.clone()), Some(&decl.ident))?;
        let target = self.chain().resolve(&name, Access::Write).var;
        self.mark_initialized(&target);
        let span = self.span(decl.class.span());
        Ok(ir::StmtKind::Bind { pattern: ir::Pattern::Var(target), init: ir::Expr { kind: value, span } })
    }
}

/// A private key as the program wrote it (`#x`).
pub(crate) fn display(key: &str) -> &str {
    key.split('\0').next().unwrap_or(key)
}

fn method_kind(kind: ast::MethodKind) -> MethodKind {
    match kind {
        ast::MethodKind::Method => MethodKind::Method,
        ast::MethodKind::Getter => MethodKind::Getter,
        ast::MethodKind::Setter => MethodKind::Setter,
    }
}

fn accessor_name(name: &str, kind: MethodKind) -> String {
    match kind {
        MethodKind::Method => name.to_owned(),
        MethodKind::Getter => format!("get {name}"),
        MethodKind::Setter => format!("set {name}"),
    }
}
