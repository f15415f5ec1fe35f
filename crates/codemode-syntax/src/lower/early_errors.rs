//! Early errors: the SyntaxErrors JavaScript requires before a program runs, which swc does not
//! report itself (swc's own early errors arrive as recovered errors, which `parse` reads).
//!
//! [`Rule`] is the table: every rule checked here, with the message a model sees (Node's wording
//! where Node has one). The checks are methods on [`Lowerer`] called from the lowering at the node
//! they concern, because the lowering already knows what they need: the enclosing functions and
//! classes, strictness, labels and loops. [`FunctionRules`] is the per-function part of that
//! context, kept in each [`super::scope::FunctionState`].
//!
//! Strict-mode rules apply where ECMAScript says code is strict: after a `"use strict"` directive
//! (of the program or an enclosing function) and inside classes. codemode's run-time semantics are
//! strict everywhere, but a program without the directive is not rejected for what only strict
//! mode forbids (`function f(a, a)`, a `\8` escape), as it would not be in Node.

use std::collections::HashMap;

use swc_common::Spanned;
use swc_ecma_ast::{self as ast, Expr, Lit, Pat, Stmt};

use super::{FunctionBodySource, FunctionSource, LowerError, LowerResult, Lowerer, collect};

/// An early error codemode reports. `{}` in a message is replaced by the name involved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Rule {
    EscapedKeyword,
    EvalOrArgumentsBinding,
    DuplicateParameter,
    UseStrictWithNonSimpleParams,
    SuperProperty,
    SuperCall,
    NewTarget,
    DeletePrivateField,
    DuplicatePrivateName,
    StaticPrototype,
    FieldNamedConstructor,
    UndefinedLabel,
    DuplicateLabel,
    ContinueNotALoop,
    IllegalBreak,
    IllegalContinue,
    AsyncFunctionInStatementPosition,
    GeneratorInStatementPosition,
    FunctionInStatementPosition,
    LexicalInStatementPosition,
    StrictLegacyEscape89,
    StrictOctalEscape,
    TemplateLegacyEscape89,
    TemplateOctalEscape,
    SeparatorInUnicodeEscape,
    DuplicateProto,
    AsyncLineTerminator,
    LonePrivateName,
    LineTerminatorInRegex,
    InvalidIdentifierStart,
    ThisAsName,
    AwaitInParameters,
    YieldInParameters,
    ImportCallSpread,
    NewImportCall,
    UsingInSwitchCase,
}

impl Rule {
    fn message(self) -> &'static str {
        match self {
            Rule::EscapedKeyword => "Keyword must not contain escaped characters: '{}'",
            Rule::EvalOrArgumentsBinding => {
                "Unexpected eval or arguments in strict mode: '{}' cannot be assigned or declared"
            }
            Rule::DuplicateParameter => "Duplicate parameter name not allowed in this context: '{}'",
            Rule::UseStrictWithNonSimpleParams => {
                "Illegal 'use strict' directive in function with non-simple parameter list"
            }
            Rule::SuperProperty => {
                "'super' keyword unexpected here: `super.x` is only valid in methods (and arrows inside them)"
            }
            Rule::SuperCall => {
                "'super' keyword unexpected here: `super()` is only valid in the constructor of a class that extends another"
            }
            Rule::NewTarget => "new.target expression is not allowed here: it is only valid in functions",
            Rule::DeletePrivateField => "Private fields can not be deleted: '#{}'",
            Rule::DuplicatePrivateName => "Identifier '#{}' has already been declared",
            Rule::StaticPrototype => "Classes may not have a static property named 'prototype'",
            Rule::FieldNamedConstructor => "Classes may not have a field named 'constructor'",
            Rule::UndefinedLabel => "Undefined label '{}'",
            Rule::DuplicateLabel => "Label '{}' has already been declared",
            Rule::ContinueNotALoop => {
                "Illegal continue statement: '{}' does not denote an iteration statement"
            }
            Rule::IllegalBreak => "Illegal break statement: no surrounding loop or switch",
            Rule::IllegalContinue => "Illegal continue statement: no surrounding iteration statement",
            Rule::AsyncFunctionInStatementPosition => {
                "Async functions can only be declared at the top level or inside a block"
            }
            Rule::GeneratorInStatementPosition => {
                "Generators can only be declared at the top level or inside a block"
            }
            Rule::FunctionInStatementPosition => {
                "In strict mode code, functions can only be declared at top level or inside a block"
            }
            Rule::LexicalInStatementPosition => {
                "Lexical declaration cannot appear in a single-statement context"
            }
            Rule::StrictLegacyEscape89 => "\\8 and \\9 are not allowed in strict mode",
            Rule::StrictOctalEscape => "Octal escape sequences are not allowed in strict mode",
            Rule::TemplateLegacyEscape89 => "\\8 and \\9 are not allowed in template strings",
            Rule::TemplateOctalEscape => "Octal escape sequences are not allowed in template strings",
            Rule::SeparatorInUnicodeEscape => "Invalid Unicode escape sequence: no `_` inside `\\u{...}`",
            Rule::DuplicateProto => "Duplicate __proto__ fields are not allowed in object literals",
            Rule::AsyncLineTerminator => "Line terminator not permitted between 'async' and the method name",
            Rule::LonePrivateName => {
                "Unexpected private name '#{}': it is only valid after `.` or before `in` (`#{} in obj`)"
            }
            Rule::LineTerminatorInRegex => {
                "Invalid regular expression: missing / (a line terminator ends the literal)"
            }
            Rule::InvalidIdentifierStart => {
                "Invalid or unexpected token: an identifier cannot start with U+200C or U+200D"
            }
            Rule::ThisAsName => "Unexpected token 'this': it cannot be declared as a name",
            Rule::AwaitInParameters => "Illegal await-expression in formal parameters of async function",
            Rule::YieldInParameters => "Yield expression not allowed in formal parameter",
            Rule::ImportCallSpread => "import() cannot take a spread argument (`...`)",
            Rule::NewImportCall => "Cannot use new with import(): `import(...)` is not a constructor",
            Rule::UsingInSwitchCase => {
                "`using` declarations are not allowed directly in a `case` or `default` clause; wrap them in a block"
            }
        }
    }
}

/// Words that are never identifiers (written with escapes they still are not).
const RESERVED: &[&str] = &[
    "break",
    "case",
    "catch",
    "class",
    "const",
    "continue",
    "debugger",
    "default",
    "delete",
    "do",
    "else",
    "enum",
    "export",
    "extends",
    "false",
    "finally",
    "for",
    "function",
    "if",
    "import",
    "in",
    "instanceof",
    "new",
    "null",
    "return",
    "super",
    "switch",
    "this",
    "throw",
    "true",
    "try",
    "typeof",
    "var",
    "void",
    "while",
    "with",
];

/// Words reserved in strict mode code.
const STRICT_RESERVED: &[&str] =
    &["implements", "interface", "let", "package", "private", "protected", "public", "static", "yield"];

/// What the early errors need to know about the function being lowered.
#[derive(Debug, Default)]
pub(crate) struct FunctionRules {
    pub strict: bool,
    /// `await` is a keyword: async functions, the (async) program, arrows inside them.
    await_reserved: bool,
    /// `yield` is a keyword: generators and strict code.
    yield_reserved: bool,
    /// `super.x` is valid: methods and arrows inside them.
    pub super_property: bool,
    /// `super()` is valid: derived constructors and arrows inside them.
    super_call: bool,
    /// `new.target` is valid: any non-arrow function and arrows inside one.
    new_target: bool,
    /// Parameter names must be unique whatever the mode: arrows and methods.
    unique_params: bool,
    /// The labels around the statement being lowered, innermost last, with whether each labels a
    /// loop (`continue` may target only those).
    labels: Vec<(String, bool)>,
    loops: u32,
    switches: u32,
    /// The parameter list is being lowered (`await`/`yield` expressions are errors there).
    pub in_params: bool,
}

impl FunctionRules {
    /// The program itself: an async function body with no `new.target` or `super`.
    pub(crate) fn program(stmts: &[Stmt]) -> Self {
        let strict = has_use_strict(stmts);
        FunctionRules { strict, await_reserved: true, yield_reserved: strict, ..Self::default() }
    }

    /// A function inside `parent`. `method` is whether it is a class member's function (a method,
    /// constructor, field initializer or static block: strict, with `super.x`); `derived_constructor`
    /// whether it may call `super()`.
    pub(crate) fn nested(
        parent: &FunctionRules,
        source: &FunctionSource<'_>,
        method: bool,
        derived_constructor: bool,
    ) -> Self {
        let own_directive = matches!(source.body, FunctionBodySource::Block(stmts) if has_use_strict(stmts));
        let strict = parent.strict || method || own_directive;
        let arrow = source.is_arrow;
        FunctionRules {
            strict,
            await_reserved: source.is_async || arrow && parent.await_reserved,
            yield_reserved: strict || source.is_generator,
            super_property: method || source.is_method || arrow && parent.super_property,
            super_call: derived_constructor || arrow && parent.super_call,
            new_target: !arrow || parent.new_target,
            unique_params: arrow || method || source.is_method,
            labels: Vec::new(),
            loops: 0,
            switches: 0,
            in_params: false,
        }
    }
}

/// Whether a body's directive prologue has `"use strict"` (written exactly so: no escapes).
fn has_use_strict(stmts: &[Stmt]) -> bool {
    for stmt in stmts {
        let Stmt::Expr(expr) = stmt else { return false };
        let Expr::Lit(Lit::Str(string)) = &*expr.expr else { return false };
        if let Some("\"use strict\"" | "'use strict'") = string.raw.as_deref() {
            return true;
        }
    }
    false
}

/// How a statement being lowered uses the loop and label context.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Breakable {
    Loop,
    Switch,
    None,
}

pub(crate) fn breakable(stmt: &Stmt) -> Breakable {
    match stmt {
        Stmt::While(_) | Stmt::DoWhile(_) | Stmt::For(_) | Stmt::ForIn(_) | Stmt::ForOf(_) => Breakable::Loop,
        Stmt::Switch(_) => Breakable::Switch,
        _ => Breakable::None,
    }
}

impl Lowerer<'_> {
    /// The error for `rule`, naming `name`, at `span`.
    pub(crate) fn early(&self, rule: Rule, name: &str, span: swc_common::Span) -> LowerError {
        self.parse_error(rule.message().replace("{}", name), span)
    }

    fn rules(&self) -> &FunctionRules {
        &self.func.early
    }

    /// Any identifier written in the program (a binding, a reference, a label): one spelled with
    /// escapes must not be a reserved word.
    pub(crate) fn check_identifier(&self, ident: &ast::Ident) -> LowerResult<()> {
        let name = ident.sym.as_str();
        let source = self.locator.source(ident.span);
        if !source.contains('\\') {
            return Ok(());
        }
        if bad_escape(source) == Some(Escape::Separator) {
            return Err(self.early(Rule::SeparatorInUnicodeEscape, "", ident.span));
        }
        if name.starts_with(['\u{200C}', '\u{200D}']) {
            return Err(self.early(Rule::InvalidIdentifierStart, "", ident.span));
        }
        let rules = self.rules();
        let reserved = RESERVED.contains(&name)
            || rules.strict && STRICT_RESERVED.contains(&name)
            || name == "await" && rules.await_reserved
            || name == "yield" && rules.yield_reserved;
        if reserved { Err(self.early(Rule::EscapedKeyword, name, ident.span)) } else { Ok(()) }
    }

    /// A name being declared other than a parameter (a TypeScript `this` parameter declares
    /// nothing; swc accepts `this` as a name elsewhere too).
    pub(crate) fn check_declared_name(&self, ident: &ast::Ident) -> LowerResult<()> {
        if ident.sym == "this" {
            return Err(self.early(Rule::ThisAsName, "", ident.span));
        }
        self.check_binding(ident)
    }

    /// `await` or `yield` (`is_await` false) as an expression: not in a parameter list.
    pub(crate) fn check_await_yield(&self, is_await: bool, span: swc_common::Span) -> LowerResult<()> {
        if !self.rules().in_params {
            return Ok(());
        }
        Err(self.early(if is_await { Rule::AwaitInParameters } else { Rule::YieldInParameters }, "", span))
    }

    /// `import(...)`: no spread argument.
    pub(crate) fn check_import_call(&self, call: &ast::CallExpr) -> LowerResult<()> {
        match call.args.iter().find_map(|arg| arg.spread) {
            Some(spread) => Err(self.early(Rule::ImportCallSpread, "", spread)),
            None => Ok(()),
        }
    }

    /// `new import(..)` and `new import(..).x` (unparenthesized: an import call is no member
    /// expression).
    pub(crate) fn check_new_callee(&self, new: &ast::NewExpr) -> LowerResult<()> {
        let mut callee = &*new.callee;
        loop {
            match callee {
                Expr::Member(member) => callee = &member.obj,
                Expr::Call(call) if matches!(call.callee, ast::Callee::Import(_)) => {
                    return Err(self.early(Rule::NewImportCall, "", new.span));
                }
                _ => return Ok(()),
            }
        }
    }

    /// A name being declared (variable, function, class, parameter, catch parameter).
    pub(crate) fn check_binding(&self, ident: &ast::Ident) -> LowerResult<()> {
        self.check_identifier(ident)?;
        let name = ident.sym.as_str();
        if self.rules().strict && (name == "eval" || name == "arguments") {
            return Err(self.early(Rule::EvalOrArgumentsBinding, name, ident.span));
        }
        Ok(())
    }

    /// A function's parameter list, before its names are declared.
    pub(crate) fn check_params(&self, source: &FunctionSource<'_>) -> LowerResult<()> {
        let simple = source.params.iter().all(|pat| matches!(pat, Pat::Ident(_)));
        if !simple
            && let FunctionBodySource::Block(stmts) = source.body
            && has_use_strict(stmts)
        {
            return Err(self.early(Rule::UseStrictWithNonSimpleParams, "", source.span));
        }
        let rules = self.rules();
        let unique = rules.strict || rules.unique_params || !simple;
        let mut seen = HashMap::new();
        for pat in &source.params {
            for ident in collect::binding_idents(pat) {
                // TypeScript's `this` parameter declares nothing.
                if ident.sym == "this" && !self.locator.source(ident.span).contains('\\') {
                    continue;
                }
                self.check_binding(ident)?;
                if seen.insert(ident.sym.as_str(), ()).is_some() && unique {
                    return Err(self.early(Rule::DuplicateParameter, ident.sym.as_str(), ident.span));
                }
            }
        }
        Ok(())
    }

    /// `super.x` where there is no home object: an early error unless this is a method of an
    /// object literal (valid JavaScript the runtime does not implement).
    pub(crate) fn check_super_property(&self, span: swc_common::Span) -> LowerResult<()> {
        if self.rules().super_property { Ok(()) } else { Err(self.early(Rule::SuperProperty, "", span)) }
    }

    /// `super(...)` outside a derived constructor: an early error unless an arrow inside one.
    pub(crate) fn check_super_call(&self, span: swc_common::Span) -> LowerResult<()> {
        if self.rules().super_call { Ok(()) } else { Err(self.early(Rule::SuperCall, "", span)) }
    }

    /// `new.target`: only inside a function, spelled without escapes.
    pub(crate) fn check_new_target(&self, span: swc_common::Span) -> LowerResult<()> {
        if self.locator.source(span).contains('\\') {
            return Err(self.early(Rule::EscapedKeyword, "new.target", span));
        }
        if self.rules().new_target { Ok(()) } else { Err(self.early(Rule::NewTarget, "", span)) }
    }

    /// `delete x.#p` (also parenthesized, which swc lets through).
    pub(crate) fn check_delete(&self, member: &ast::MemberExpr) -> LowerResult<()> {
        match &member.prop {
            ast::MemberProp::PrivateName(name) => {
                Err(self.early(Rule::DeletePrivateField, name.name.as_str(), member.span))
            }
            _ => Ok(()),
        }
    }

    /// A statement in a position that holds exactly one (an `if` or loop body, a label's body):
    /// no declarations there, except a plain function in sloppy mode (web legacy).
    pub(crate) fn check_single_statement(&self, stmt: &Stmt) -> LowerResult<()> {
        let Stmt::Decl(decl) = stmt else { return Ok(()) };
        let rule = match decl {
            ast::Decl::Fn(f) if f.function.is_async => Rule::AsyncFunctionInStatementPosition,
            ast::Decl::Fn(f) if f.function.is_generator => Rule::GeneratorInStatementPosition,
            ast::Decl::Fn(_) if self.rules().strict => Rule::FunctionInStatementPosition,
            ast::Decl::Fn(_) => return Ok(()),
            ast::Decl::Var(var) if var.kind != ast::VarDeclKind::Var => Rule::LexicalInStatementPosition,
            ast::Decl::Class(_) | ast::Decl::Using(_) => Rule::LexicalInStatementPosition,
            _ => return Ok(()),
        };
        Err(self.early(rule, "", stmt_span(stmt)))
    }

    /// A `switch`'s clauses: no `using` declaration directly in one (a case clause is not a block
    /// its resources could be disposed at the end of; a block inside one is).
    pub(crate) fn check_switch_cases(&self, switch: &ast::SwitchStmt) -> LowerResult<()> {
        for stmt in switch.cases.iter().flat_map(|case| case.cons.iter()) {
            if let Stmt::Decl(ast::Decl::Using(using)) = stmt {
                return Err(self.early(Rule::UsingInSwitchCase, "", using.span));
            }
        }
        Ok(())
    }

    /// Enters a labelled statement: the label must be new here and spelled as an identifier.
    pub(crate) fn push_label(&mut self, labeled: &ast::LabeledStmt) -> LowerResult<()> {
        self.check_identifier(&labeled.label)?;
        let name = labeled.label.sym.as_str();
        if self.rules().labels.iter().any(|(label, _)| label == name) {
            return Err(self.early(Rule::DuplicateLabel, name, labeled.label.span));
        }
        let mut body = &*labeled.body;
        while let Stmt::Labeled(inner) = body {
            body = &inner.body;
        }
        let is_loop = breakable(body) == Breakable::Loop;
        self.func.early.labels.push((name.to_string(), is_loop));
        Ok(())
    }

    pub(crate) fn pop_label(&mut self) {
        self.func.early.labels.pop();
    }

    /// Enters (`enter`) or leaves a loop or `switch`.
    pub(crate) fn count_breakable(&mut self, kind: Breakable, enter: bool) {
        let rules = &mut self.func.early;
        let counter = match kind {
            Breakable::Loop => &mut rules.loops,
            Breakable::Switch => &mut rules.switches,
            Breakable::None => return,
        };
        *counter = if enter { counter.saturating_add(1) } else { counter.saturating_sub(1) };
    }

    /// `break` and `continue` (labels do not cross function or static-block boundaries).
    pub(crate) fn check_jump(&self, stmt: &Stmt) -> LowerResult<()> {
        let rules = self.rules();
        let (label, is_continue, span) = match stmt {
            Stmt::Break(brk) => (&brk.label, false, brk.span),
            Stmt::Continue(cont) => (&cont.label, true, cont.span),
            _ => return Ok(()),
        };
        match label {
            Some(label) => {
                self.check_identifier(label)?;
                let name = label.sym.as_str();
                match rules.labels.iter().rev().find(|(l, _)| l == name) {
                    None => Err(self.early(Rule::UndefinedLabel, name, label.span)),
                    Some((_, false)) if is_continue => {
                        Err(self.early(Rule::ContinueNotALoop, name, label.span))
                    }
                    Some(_) => Ok(()),
                }
            }
            None if is_continue && rules.loops == 0 => Err(self.early(Rule::IllegalContinue, "", span)),
            None if rules.loops == 0 && rules.switches == 0 => Err(self.early(Rule::IllegalBreak, "", span)),
            None => Ok(()),
        }
    }

    /// A string literal's escapes (`raw` is its source text, quotes included).
    pub(crate) fn check_string(&self, string: &ast::Str) -> LowerResult<()> {
        let Some(raw) = string.raw.as_deref() else { return Ok(()) };
        match bad_escape(raw) {
            Some(Escape::Separator) => Err(self.early(Rule::SeparatorInUnicodeEscape, "", string.span)),
            Some(Escape::Legacy89) if self.rules().strict => {
                Err(self.early(Rule::StrictLegacyEscape89, "", string.span))
            }
            Some(Escape::Octal) if self.rules().strict => {
                Err(self.early(Rule::StrictOctalEscape, "", string.span))
            }
            _ => Ok(()),
        }
    }

    /// An untagged template's escapes (a tagged one may hold any: its cooked value is `undefined`).
    pub(crate) fn check_template(&self, tpl: &ast::Tpl) -> LowerResult<()> {
        for quasi in &tpl.quasis {
            let rule = match bad_escape(&quasi.raw) {
                Some(Escape::Separator) => Rule::SeparatorInUnicodeEscape,
                Some(Escape::Legacy89) => Rule::TemplateLegacyEscape89,
                Some(Escape::Octal) => Rule::TemplateOctalEscape,
                None => continue,
            };
            return Err(self.early(rule, "", quasi.span));
        }
        Ok(())
    }

    /// A regular expression literal's source: the pattern itself is checked by
    /// `codemode_ir::regex`, shared with `new RegExp`, which may contain line terminators.
    pub(crate) fn check_regex_literal(&self, regex: &ast::Regex) -> LowerResult<()> {
        if regex.exp.contains(['\u{2028}', '\u{2029}']) {
            return Err(self.early(Rule::LineTerminatorInRegex, "", regex.span));
        }
        Ok(())
    }

    /// An object literal (not a pattern): one `__proto__: v` at most.
    pub(crate) fn check_object_literal(&self, object: &ast::ObjectLit) -> LowerResult<()> {
        let mut seen = false;
        for prop in &object.props {
            let ast::PropOrSpread::Prop(prop) = prop else { continue };
            let ast::Prop::KeyValue(kv) = &**prop else { continue };
            let is_proto = match &kv.key {
                ast::PropName::Ident(ident) => ident.sym == "__proto__",
                ast::PropName::Str(string) => string.value.as_str() == Some("__proto__"),
                _ => false,
            };
            if is_proto && std::mem::replace(&mut seen, true) {
                return Err(self.early(Rule::DuplicateProto, "", kv.key.span()));
            }
        }
        Ok(())
    }

    /// The words before a method's key (`get`, `set`, `static`, `async`, `*`): no escapes, and no
    /// line break after `async`.
    pub(crate) fn check_method_prefix(
        &self,
        start: swc_common::BytePos,
        key: swc_common::Span,
        is_async: bool,
    ) -> LowerResult<()> {
        if start >= key.lo {
            return Ok(());
        }
        let prefix = self.locator.source(swc_common::Span::new(start, key.lo));
        if prefix.contains('\\') {
            let word = prefix.split_whitespace().next().unwrap_or_default();
            return Err(self.early(Rule::EscapedKeyword, word, key));
        }
        if is_async && let Some(after) = prefix.trim_start().strip_prefix("async") {
            // Comments may sit between the words; a line break anywhere there is the error.
            if after.contains(['\n', '\r', '\u{2028}', '\u{2029}']) {
                return Err(self.early(Rule::AsyncLineTerminator, "", key));
            }
        }
        Ok(())
    }

    /// A class body: private names declared once (a getter and setter pair of the same
    /// placement excepted), no static `prototype`, no field named `constructor`.
    pub(crate) fn check_class_members(&self, class: &ast::Class) -> LowerResult<()> {
        // Private name → (kind, static): kind 0 field or method, 1 getter, 2 setter.
        let mut private: HashMap<&str, (u8, bool)> = HashMap::new();
        for member in &class.body {
            let (name, kind, is_static) = match member {
                ast::ClassMember::PrivateMethod(m) => {
                    let kind = match m.kind {
                        ast::MethodKind::Getter => 1,
                        ast::MethodKind::Setter => 2,
                        ast::MethodKind::Method => 0,
                    };
                    self.check_method_prefix(m.span.lo, m.key.span, m.function.is_async)?;
                    (&m.key, kind, m.is_static)
                }
                ast::ClassMember::PrivateProp(p) => {
                    self.check_key_start(p.key.name.as_str(), p.key.span)?;
                    (&p.key, 0, p.is_static)
                }
                ast::ClassMember::Method(m) => {
                    self.check_method_prefix(m.span.lo, m.key.span(), m.function.is_async)?;
                    if m.is_static && static_name(&m.key) == Some("prototype") {
                        return Err(self.early(Rule::StaticPrototype, "", m.key.span()));
                    }
                    continue;
                }
                ast::ClassMember::ClassProp(p) => {
                    if let ast::PropName::Ident(ident) = &p.key {
                        self.check_key_start(ident.sym.as_str(), ident.span)?;
                    }
                    match static_name(&p.key) {
                        Some("prototype") if p.is_static => {
                            return Err(self.early(Rule::StaticPrototype, "", p.key.span()));
                        }
                        Some("constructor") => {
                            return Err(self.early(Rule::FieldNamedConstructor, "", p.key.span()));
                        }
                        _ => {}
                    }
                    continue;
                }
                _ => continue,
            };
            let text = name.name.as_str();
            match private.get(text) {
                None => {
                    private.insert(text, (kind, is_static));
                }
                Some(&(first, first_static))
                    if matches!((first, kind), (1, 2) | (2, 1)) && first_static == is_static =>
                {
                    // A getter and its setter: complete now, so a third is a duplicate.
                    private.insert(text, (3, is_static));
                }
                Some(_) => return Err(self.early(Rule::DuplicatePrivateName, text, name.span)),
            }
        }
        Ok(())
    }
}

impl Lowerer<'_> {
    /// A field's or private name's identifier (swc accepts an escaped ZWJ/ZWNJ first).
    fn check_key_start(&self, name: &str, span: swc_common::Span) -> LowerResult<()> {
        if name.starts_with(['\u{200C}', '\u{200D}']) {
            return Err(self.early(Rule::InvalidIdentifierStart, "", span));
        }
        Ok(())
    }
}

/// A property key's name when it is written as one (not computed).
fn static_name(key: &ast::PropName) -> Option<&str> {
    match key {
        ast::PropName::Ident(ident) => Some(ident.sym.as_str()),
        ast::PropName::Str(string) => string.value.as_str(),
        _ => None,
    }
}

fn stmt_span(stmt: &Stmt) -> swc_common::Span {
    swc_common::Spanned::span(stmt)
}

/// An escape that strict code (`Legacy89`, `Octal`) or all code (`Separator`) forbids.
#[derive(Debug, PartialEq, Eq)]
enum Escape {
    Legacy89,
    Octal,
    Separator,
}

/// The first forbidden escape in the source text of a string or template part.
fn bad_escape(raw: &str) -> Option<Escape> {
    let mut chars = raw.chars().peekable();
    let mut found = None;
    while let Some(c) = chars.next() {
        if c != '\\' {
            continue;
        }
        match chars.next() {
            Some('8' | '9') => found = found.or(Some(Escape::Legacy89)),
            Some('0') if chars.peek().is_some_and(char::is_ascii_digit) => {
                found = found.or(Some(Escape::Octal))
            }
            Some('1'..='7') => found = found.or(Some(Escape::Octal)),
            Some('u') if chars.peek() == Some(&'{') => {
                for c in chars.by_ref() {
                    match c {
                        '}' => break,
                        '_' => return Some(Escape::Separator),
                        _ => {}
                    }
                }
            }
            _ => {}
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::{Escape, bad_escape};

    #[test]
    fn escapes() {
        assert_eq!(bad_escape(r#""\8""#), Some(Escape::Legacy89));
        assert_eq!(bad_escape(r#""\\8""#), None);
        assert_eq!(bad_escape(r#""\08""#), Some(Escape::Octal));
        assert_eq!(bad_escape(r#""\0x""#), None);
        assert_eq!(bad_escape(r#""\u{1F_639}""#), Some(Escape::Separator));
        assert_eq!(bad_escape(r#""\u{1F639}_""#), None);
    }
}
