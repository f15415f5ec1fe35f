//! [`Dump::dump`]: a stable, readable text form of the IR for snapshot tests.
//!
//! One block per function (header, vars, captures, params, body), one line per statement with
//! its `line:column`, nested statements indented by two spaces, expressions inline with
//! parentheses around every operator so precedence is never ambiguous. Bindings print with
//! their resolution: `local#3 x`, `capture#0 x`, `global tools`; a TDZ-checked read has a `!`
//! suffix (`local#3 x!`).

use std::fmt::Write as _;

use crate::ir::{
    ArrayElem, BinaryOp, Block, Capture, CatchClause, Expr, ExprKind, Function, LogicalOp, ObjectProp,
    Pattern, Program, PropKey, Property, Stmt, StmtKind, UnaryOp, UpdateOp, VarKind, VarRef,
};
use crate::lower::js_number_to_string;

/// Renders a program as text (a trait because the IR lives in the `codemode-ir` crate).
pub trait Dump {
    /// Renders the whole program. Deterministic: the same IR always gives the same text.
    fn dump(&self) -> String;
}

impl Dump for Program {
    fn dump(&self) -> String {
        let mut dumper =
            Dumper { program: self, parents: vec![None; self.functions.len()], out: String::new() };
        for index in 0..self.functions.len() {
            dumper.function(index);
        }
        dumper.out
    }
}

struct Dumper<'a> {
    program: &'a Program,
    /// The function each function is defined in, filled in while dumping the parent (which
    /// always has a lower id, so it is dumped first).
    parents: Vec<Option<usize>>,
    out: String,
}

impl Dumper<'_> {
    fn function(&mut self, index: usize) {
        let Some(function) = self.program.functions.get(index) else { return };
        let name =
            function.name.as_deref().map_or_else(|| "<anonymous>".to_owned(), |name| format!("{name:?}"));
        let name = if index == 0 { "<main>".to_owned() } else { name };
        let mut flags = String::new();
        for (set, flag) in [
            (function.is_async, " async"),
            (function.is_generator, " generator"),
            (function.is_arrow, " arrow"),
            (function.uses_this, " uses-this"),
        ] {
            if set {
                flags.push_str(flag);
            }
        }
        let _ =
            writeln!(self.out, "fn#{index} {name}{flags} @{}:{}", function.span.line, function.span.column);
        if let Some(parent) = self.parents.get(index).copied().flatten() {
            let _ = writeln!(self.out, "  parent: fn#{parent}");
        }
        if !function.vars.is_empty() {
            self.out.push_str("  vars:\n");
            for (id, var) in function.vars.iter().enumerate() {
                let captured = if var.captured { " captured" } else { "" };
                let _ = writeln!(self.out, "    #{id} {} {}{captured}", var.name, var_kind(var.kind));
            }
        }
        if !function.captures.is_empty() {
            self.out.push_str("  captures:\n");
            for (id, capture) in function.captures.iter().enumerate() {
                let source = match capture {
                    Capture::ParentLocal(var) => format!("parent local#{}", var.0),
                    Capture::ParentCapture(capture) => format!("parent capture#{capture}"),
                };
                let name = self.capture_name(index, id);
                let _ = writeln!(self.out, "    #{id} {name} <- {source}");
            }
        }
        if let Some(var) = function.arguments_var {
            let _ = writeln!(self.out, "  arguments: local#{}", var.0);
        }
        if !function.params.is_empty() {
            self.text("  params: ");
            self.list(index, &function.params, |this, function, param| this.pattern(function, param));
            self.text("\n");
        }
        if let Some(rest) = &function.rest {
            self.text("  rest: ");
            self.pattern(index, rest);
            self.text("\n");
        }
        let scope = self.scope(function, &function.body.scope);
        let _ = writeln!(self.out, "  body:{scope}");
        self.block_body(index, &function.body, 2);
        self.out.push('\n');
    }

    /// The name of capture `capture` of function `function`, following the chain up to the
    /// binding (iteratively).
    fn capture_name(&self, function: usize, capture: usize) -> String {
        let (mut function, mut capture) = (function, capture);
        loop {
            let Some(parent) = self.parents.get(function).copied().flatten() else { return "?".into() };
            let Some(source) = self.program.functions.get(function).and_then(|f| f.captures.get(capture))
            else {
                return "?".into();
            };
            match source {
                Capture::ParentLocal(var) => return self.var_name(parent, var.0 as usize),
                Capture::ParentCapture(next) => {
                    function = parent;
                    capture = *next as usize;
                }
            }
        }
    }

    fn var_name(&self, function: usize, var: usize) -> String {
        self.program
            .functions
            .get(function)
            .and_then(|f| f.vars.get(var))
            .map_or_else(|| "?".to_owned(), |info| info.name.clone())
    }

    fn scope(&self, function: &Function, scope: &[crate::ir::VarId]) -> String {
        if scope.is_empty() {
            return String::new();
        }
        let names: Vec<String> = scope
            .iter()
            .map(|var| {
                let name = function.vars.get(var.0 as usize).map_or("?", |info| info.name.as_str());
                format!("#{} {name}", var.0)
            })
            .collect();
        format!(" scope [{}]", names.join(", "))
    }

    fn block_body(&mut self, function: usize, block: &Block, indent: usize) {
        for stmt in &block.body {
            self.stmt(function, stmt, indent);
        }
    }

    /// Starts a statement's line: indentation and `line:column`.
    fn begin(&mut self, indent: usize, stmt: &Stmt, keyword: &str) {
        let _ = write!(self.out, "{:indent$}{}:{} {keyword}", "", stmt.span.line, stmt.span.column);
    }

    fn text(&mut self, text: &str) {
        self.out.push_str(text);
    }

    fn label(&mut self, label: &Option<String>) {
        if let Some(label) = label {
            let _ = write!(self.out, " label {label}");
        }
    }

    fn scope_of(&mut self, function: usize, scope: &[crate::ir::VarId]) {
        if let Some(func) = self.program.functions.get(function) {
            let text = self.scope(func, scope);
            self.out.push_str(&text);
        }
    }

    // The writers below append to `self.out` rather than return strings, and each statement or
    // expression kind with nested ones has a function of its own: the dump recurses once per IR
    // level, and must fit `MAX_NESTING` levels in a 2 MiB stack in debug builds too.

    fn stmt(&mut self, function: usize, stmt: &Stmt, indent: usize) {
        let inner = indent + 2;
        match &stmt.kind {
            StmtKind::Expr(expr) => self.expr_line(function, stmt, indent, "expr ", expr),
            StmtKind::Throw(expr) => self.expr_line(function, stmt, indent, "throw ", expr),
            StmtKind::Return(Some(expr)) => self.expr_line(function, stmt, indent, "return ", expr),
            StmtKind::Return(None) => self.simple_line(stmt, indent, "return"),
            StmtKind::Bind { pattern, init } => self.bind_line(function, stmt, indent, pattern, init),
            StmtKind::Block(block) => {
                self.begin(indent, stmt, "block");
                self.scope_of(function, &block.scope);
                self.text("\n");
                self.block_body(function, block, inner);
            }
            StmtKind::If { test, then, otherwise } => {
                self.if_stmt(function, stmt, indent, test, then, otherwise)
            }
            StmtKind::While { test, body, do_while, label } => {
                self.begin(indent, stmt, if *do_while { "do-while" } else { "while" });
                self.label(label);
                self.text(" ");
                self.expr(function, test);
                self.text("\n");
                self.stmt(function, body, inner);
            }
            StmtKind::For { .. } => self.for_stmt(function, stmt, indent),
            StmtKind::ForOf { .. } | StmtKind::ForIn { .. } => self.for_in_of(function, stmt, indent),
            StmtKind::Switch { .. } => self.switch(function, stmt, indent),
            StmtKind::Labeled { label, body } => {
                self.begin(indent, stmt, "labeled ");
                self.text(label);
                self.text("\n");
                self.stmt(function, body, inner);
            }
            StmtKind::Break(label) => self.simple_line(stmt, indent, &format!("break{}", opt_label(label))),
            StmtKind::Continue(label) => {
                self.simple_line(stmt, indent, &format!("continue{}", opt_label(label)))
            }
            StmtKind::Try { block, catch, finally } => {
                self.try_stmt(function, stmt, indent, block, catch, finally)
            }
            StmtKind::Empty => self.simple_line(stmt, indent, "empty"),
        }
    }

    fn simple_line(&mut self, stmt: &Stmt, indent: usize, text: &str) {
        self.begin(indent, stmt, text);
        self.text("\n");
    }

    fn expr_line(&mut self, function: usize, stmt: &Stmt, indent: usize, keyword: &str, expr: &Expr) {
        self.begin(indent, stmt, keyword);
        self.expr(function, expr);
        self.text("\n");
    }

    fn bind_line(&mut self, function: usize, stmt: &Stmt, indent: usize, pattern: &Pattern, init: &Expr) {
        self.begin(indent, stmt, "bind ");
        self.pattern(function, pattern);
        self.text(" = ");
        self.expr(function, init);
        self.text("\n");
    }

    fn if_stmt(
        &mut self,
        function: usize,
        stmt: &Stmt,
        indent: usize,
        test: &Expr,
        then: &Stmt,
        otherwise: &Option<Box<Stmt>>,
    ) {
        self.expr_line(function, stmt, indent, "if ", test);
        self.stmt(function, then, indent + 2);
        if let Some(otherwise) = otherwise {
            let _ = writeln!(self.out, "{:indent$}else", "");
            self.stmt(function, otherwise, indent + 2);
        }
    }

    fn for_stmt(&mut self, function: usize, stmt: &Stmt, indent: usize) {
        let StmtKind::For { init, test, update, body, scope, per_iteration, label } = &stmt.kind else {
            return;
        };
        let inner = indent + 2;
        self.begin(indent, stmt, "for");
        self.label(label);
        self.scope_of(function, scope);
        if !per_iteration.is_empty() {
            let vars: Vec<String> = per_iteration.iter().map(|var| format!("#{}", var.0)).collect();
            let _ = write!(self.out, " per-iteration [{}]", vars.join(", "));
        }
        self.text("\n");
        if let Some(init) = init {
            let _ = writeln!(self.out, "{:inner$}init:", "");
            self.stmt(function, init, inner + 2);
        }
        if let Some(test) = test {
            let _ = write!(self.out, "{:inner$}test: ", "");
            self.expr(function, test);
            self.text("\n");
        }
        if let Some(update) = update {
            let _ = write!(self.out, "{:inner$}update: ", "");
            self.expr(function, update);
            self.text("\n");
        }
        self.stmt(function, body, inner);
    }

    fn for_in_of(&mut self, function: usize, stmt: &Stmt, indent: usize) {
        let (keyword, pattern, declare, iterable, body, scope, label) = match &stmt.kind {
            StmtKind::ForOf { pattern, declare, iterable, body, scope, label, is_await } => {
                let keyword = if *is_await { "for-await-of" } else { "for-of" };
                (keyword, pattern, declare, iterable, body, scope, label)
            }
            StmtKind::ForIn { pattern, declare, object, body, scope, label } => {
                ("for-in", pattern, declare, object, body, scope, label)
            }
            _ => return,
        };
        self.begin(indent, stmt, keyword);
        self.label(label);
        self.scope_of(function, scope);
        self.text(if *declare { " declare " } else { " assign " });
        self.pattern(function, pattern);
        self.text(" <- ");
        self.expr(function, iterable);
        self.text("\n");
        self.stmt(function, body, indent + 2);
    }

    fn switch(&mut self, function: usize, stmt: &Stmt, indent: usize) {
        let StmtKind::Switch { discriminant, cases, scope, label } = &stmt.kind else { return };
        let inner = indent + 2;
        self.begin(indent, stmt, "switch");
        self.label(label);
        self.scope_of(function, scope);
        self.text(" ");
        self.expr(function, discriminant);
        self.text("\n");
        for case in cases {
            let _ = write!(self.out, "{:inner$}", "");
            match &case.test {
                Some(test) => {
                    self.text("case ");
                    self.expr(function, test);
                }
                None => self.text("default"),
            }
            self.text(":\n");
            for stmt in &case.body {
                self.stmt(function, stmt, inner + 2);
            }
        }
    }

    fn try_stmt(
        &mut self,
        function: usize,
        stmt: &Stmt,
        indent: usize,
        block: &Block,
        catch: &Option<CatchClause>,
        finally: &Option<Block>,
    ) {
        let inner = indent + 2;
        self.begin(indent, stmt, "try");
        self.scope_of(function, &block.scope);
        self.text("\n");
        self.block_body(function, block, inner);
        if let Some(CatchClause { param, body }) = catch {
            let _ = write!(self.out, "{:indent$}catch", "");
            if let Some(param) = param {
                self.text(" ");
                self.pattern(function, param);
            }
            self.scope_of(function, &body.scope);
            self.text("\n");
            self.block_body(function, body, inner);
        }
        if let Some(finally) = finally {
            let _ = write!(self.out, "{:indent$}finally", "");
            self.scope_of(function, &finally.scope);
            self.text("\n");
            self.block_body(function, finally, inner);
        }
    }

    fn var(&mut self, function: usize, var: &VarRef) {
        let text = match var {
            VarRef::Local(id) => format!("local#{} {}", id.0, self.var_name(function, id.0 as usize)),
            VarRef::Capture(index) => {
                format!("capture#{index} {}", self.capture_name(function, *index as usize))
            }
            VarRef::Global(name) => format!("global {name}"),
        };
        self.out.push_str(&text);
    }

    /// Writes `items` separated by `, `.
    fn list<T>(&mut self, function: usize, items: &[T], mut write: impl FnMut(&mut Self, usize, &T)) {
        for (index, item) in items.iter().enumerate() {
            if index > 0 {
                self.text(", ");
            }
            write(self, function, item);
        }
    }

    fn pattern(&mut self, function: usize, pattern: &Pattern) {
        match pattern {
            Pattern::Var(var) => self.var(function, var),
            Pattern::Member { object, property } => {
                self.expr(function, object);
                self.property(function, property, false);
            }
            Pattern::Object { props, rest } => {
                self.text("{");
                self.list(function, props, |this, function, prop| {
                    this.key(function, &prop.key);
                    this.text(": ");
                    this.pattern(function, &prop.value);
                });
                if let Some(rest) = rest {
                    self.text(if props.is_empty() { "..." } else { ", ..." });
                    self.pattern(function, rest);
                }
                self.text("}");
            }
            Pattern::Array { elems, rest } => {
                self.text("[");
                self.list(function, elems, |this, function, elem| match elem {
                    Some(elem) => this.pattern(function, elem),
                    None => this.text("<hole>"),
                });
                if let Some(rest) = rest {
                    self.text(if elems.is_empty() { "..." } else { ", ..." });
                    self.pattern(function, rest);
                }
                self.text("]");
            }
            Pattern::Default { target, default } => {
                self.text("(");
                self.pattern(function, target);
                self.text(" default ");
                self.expr(function, default);
                self.text(")");
            }
        }
    }

    fn key(&mut self, function: usize, key: &PropKey) {
        match key {
            PropKey::Named(name) => {
                let _ = write!(self.out, "{name:?}");
            }
            PropKey::Computed(expr) => {
                self.text("[");
                self.expr(function, expr);
                self.text("]");
            }
        }
    }

    fn property(&mut self, function: usize, property: &Property, optional: bool) {
        if optional {
            self.text("?.");
        }
        match property {
            Property::Named(name) => {
                if !optional {
                    self.text(".");
                }
                self.text(name);
            }
            Property::Computed(expr) => {
                self.text("[");
                self.expr(function, expr);
                self.text("]");
            }
            Property::Private(key) => {
                if !optional {
                    self.text(".");
                }
                self.text(&key.replace('\0', "@"));
            }
        }
    }

    fn args(&mut self, function: usize, args: &[ArrayElem]) {
        self.list(function, args, |this, function, arg| match arg {
            ArrayElem::Item(expr) => this.expr(function, expr),
            ArrayElem::Spread(expr) => {
                this.text("...");
                this.expr(function, expr);
            }
            ArrayElem::Hole => this.text("<hole>"),
        });
    }

    fn expr(&mut self, function: usize, expr: &Expr) {
        match &expr.kind {
            ExprKind::Undefined => self.text("undefined"),
            ExprKind::Null => self.text("null"),
            ExprKind::Bool(value) => self.text(if *value { "true" } else { "false" }),
            ExprKind::Number(value) => self.text(&js_number_to_string(*value)),
            ExprKind::BigInt(digits) => self.text(&format!("{digits}n")),
            ExprKind::String(value) => {
                let _ = write!(self.out, "{value:?}");
            }
            ExprKind::Regex { pattern, flags } => {
                let _ = write!(self.out, "/{pattern}/{flags}");
            }
            ExprKind::Template { quasis, exprs } => self.template(function, quasis, exprs),
            ExprKind::Var { var, check_tdz } => {
                self.var(function, var);
                if *check_tdz {
                    self.text("!");
                }
            }
            ExprKind::This => self.text("this"),
            ExprKind::Array(elems) => {
                self.text("[");
                self.args(function, elems);
                self.text("]");
            }
            ExprKind::Object(props) => self.object(function, props),
            ExprKind::Function(id) => {
                self.note_child(function, id.0 as usize);
                let _ = write!(self.out, "fn#{}", id.0);
            }
            ExprKind::Unary { op, arg } => self.prefix(function, unary_op(*op), arg),
            ExprKind::TypeofGlobal(name) => {
                let _ = write!(self.out, "(typeof global {name})");
            }
            ExprKind::Update { op, prefix, target } => {
                let op = match op {
                    UpdateOp::Increment => "++",
                    UpdateOp::Decrement => "--",
                };
                self.text("(");
                if *prefix {
                    self.text(op);
                }
                self.pattern(function, target);
                if !*prefix {
                    self.text(op);
                }
                self.text(")");
            }
            ExprKind::Binary { op, left, right } => self.infix(function, left, binary_op(*op), right),
            ExprKind::Logical { op, left, right } => self.infix(function, left, logical_op(*op), right),
            ExprKind::Conditional { test, then, otherwise } => {
                self.text("(");
                self.expr(function, test);
                self.text(" ? ");
                self.expr(function, then);
                self.text(" : ");
                self.expr(function, otherwise);
                self.text(")");
            }
            ExprKind::Assign { op, target, value } => {
                let op = op.map_or_else(|| "=".to_owned(), |op| format!("{}=", binary_op(op)));
                self.assignment(function, target, &op, value);
            }
            ExprKind::LogicalAssign { op, target, value } => {
                self.assignment(function, target, &format!("{}=", logical_op(*op)), value);
            }
            ExprKind::Member { object, property, optional } => {
                self.expr(function, object);
                self.property(function, property, *optional);
            }
            ExprKind::Call { callee, args, optional } => {
                self.expr(function, callee);
                self.text(if *optional { "?.(" } else { "(" });
                self.args(function, args);
                self.text(")");
            }
            ExprKind::New { callee, args } => {
                self.text("new ");
                self.expr(function, callee);
                self.text("(");
                self.args(function, args);
                self.text(")");
            }
            ExprKind::OptionalChain(inner) => {
                self.text("chain(");
                self.expr(function, inner);
                self.text(")");
            }
            ExprKind::Sequence(exprs) => {
                self.text("(");
                self.list(function, exprs, |this, function, expr| this.expr(function, expr));
                self.text(")");
            }
            ExprKind::Await(arg) => self.prefix(function, "await", arg),
            ExprKind::Yield { arg, delegate } => {
                let op = if *delegate { "yield*" } else { "yield" };
                match arg {
                    Some(arg) => self.prefix(function, op, arg),
                    None => {
                        let _ = write!(self.out, "({op})");
                    }
                }
            }
            ExprKind::Delete { object, property } => {
                self.text("(delete ");
                self.expr(function, object);
                self.property(function, property, false);
                self.text(")");
            }
            ExprKind::ThrowConstAssign { name } => {
                let _ = write!(self.out, "throw-const-assign({name})");
            }
            ExprKind::CurrentFunction => self.text("current-function"),
            ExprKind::Class(class) => {
                self.text("(class");
                if let Some(parent) = &class.parent {
                    self.text(" extends ");
                    self.expr(function, parent);
                }
                self.note_child(function, class.constructor.0 as usize);
                let _ = write!(self.out, " ctor=fn#{}", class.constructor.0);
                if let Some(fields) = class.fields {
                    self.note_child(function, fields.0 as usize);
                    let _ = write!(self.out, " fields=fn#{}", fields.0);
                }
                for member in &class.members {
                    self.note_child(function, member.function.0 as usize);
                    let kind = match member.kind {
                        crate::ir::MethodKind::Method => "method",
                        crate::ir::MethodKind::Getter => "get",
                        crate::ir::MethodKind::Setter => "set",
                    };
                    let place = if member.is_static { "static " } else { "" };
                    let _ = write!(self.out, " {place}{kind} ");
                    match &member.key {
                        PropKey::Named(name) => self.text(name),
                        PropKey::Computed(key) => {
                            self.text("[");
                            self.expr(function, key);
                            self.text("]");
                        }
                    }
                    let _ = write!(self.out, "=fn#{}", member.function.0);
                }
                for init in &class.static_init {
                    self.note_child(function, init.0 as usize);
                    let _ = write!(self.out, " static-init=fn#{}", init.0);
                }
                self.text(")");
            }
            ExprKind::SuperCall(args) => {
                self.text("(super-call ");
                self.args(function, args);
                self.text(")");
            }
            ExprKind::SuperMember { home, property } => {
                self.text("(super ");
                self.expr(function, home);
                self.text(")");
                self.property(function, property, false);
            }
            ExprKind::PrivateIn { name, object } => {
                let _ = write!(self.out, "({} in ", name.replace('\0', "@"));
                self.expr(function, object);
                self.text(")");
            }
            ExprKind::DefineField { key, value, kind } => {
                self.text(match kind {
                    codemode_ir::MethodKind::Method => "(define-field this",
                    codemode_ir::MethodKind::Getter => "(define-getter this",
                    codemode_ir::MethodKind::Setter => "(define-setter this",
                });
                self.property(function, key, false);
                self.text(" ");
                self.expr(function, value);
                self.text(")");
            }
            ExprKind::NewTarget => self.text("new.target"),
            ExprKind::Internal(name) => self.text(name),
            ExprKind::PropertyKey(arg) => self.prefix(function, "property-key", arg),
        }
    }

    fn prefix(&mut self, function: usize, op: &str, arg: &Expr) {
        let _ = write!(self.out, "({op} ");
        self.expr(function, arg);
        self.text(")");
    }

    fn infix(&mut self, function: usize, left: &Expr, op: &str, right: &Expr) {
        self.text("(");
        self.expr(function, left);
        let _ = write!(self.out, " {op} ");
        self.expr(function, right);
        self.text(")");
    }

    fn assignment(&mut self, function: usize, target: &Pattern, op: &str, value: &Expr) {
        self.text("(");
        self.pattern(function, target);
        let _ = write!(self.out, " {op} ");
        self.expr(function, value);
        self.text(")");
    }

    fn template(&mut self, function: usize, quasis: &[String], exprs: &[Expr]) {
        self.text("template(");
        for (index, quasi) in quasis.iter().enumerate() {
            if index > 0 {
                self.text(" ");
            }
            let _ = write!(self.out, "{quasi:?}");
            if let Some(expr) = exprs.get(index) {
                self.text(" ${");
                self.expr(function, expr);
                self.text("}");
            }
        }
        self.text(")");
    }

    fn object(&mut self, function: usize, props: &[ObjectProp]) {
        self.text("{");
        self.list(function, props, |this, function, prop| match prop {
            ObjectProp::KeyValue { key, value } => {
                this.key(function, key);
                this.text(": ");
                this.expr(function, value);
            }
            ObjectProp::Spread(expr) => {
                this.text("...");
                this.expr(function, expr);
            }
            ObjectProp::Proto(expr) => {
                this.text("[[Prototype]]: ");
                this.expr(function, expr);
            }
            ObjectProp::Getter { key, function: id } | ObjectProp::Setter { key, function: id } => {
                this.note_child(function, id.0 as usize);
                this.text(if matches!(prop, ObjectProp::Getter { .. }) { "get " } else { "set " });
                this.key(function, key);
                let _ = write!(this.out, ": fn#{}", id.0);
            }
        });
        self.text("}");
    }

    fn note_child(&mut self, parent: usize, child: usize) {
        if let Some(slot) = self.parents.get_mut(child)
            && slot.is_none()
            && child != parent
        {
            *slot = Some(parent);
        }
    }
}

fn opt_label(label: &Option<String>) -> String {
    label.as_ref().map_or_else(String::new, |label| format!(" {label}"))
}

fn var_kind(kind: VarKind) -> &'static str {
    match kind {
        VarKind::Var => "var",
        VarKind::Let => "let",
        VarKind::Const => "const",
        VarKind::Param => "param",
        VarKind::Function => "function",
        VarKind::CatchParam => "catch-param",
        VarKind::Temp => "temp",
    }
}

fn unary_op(op: UnaryOp) -> &'static str {
    match op {
        UnaryOp::Minus => "-",
        UnaryOp::Plus => "+",
        UnaryOp::Not => "!",
        UnaryOp::BitNot => "~",
        UnaryOp::Typeof => "typeof",
        UnaryOp::Void => "void",
    }
}

fn logical_op(op: LogicalOp) -> &'static str {
    match op {
        LogicalOp::And => "&&",
        LogicalOp::Or => "||",
        LogicalOp::Nullish => "??",
    }
}

fn binary_op(op: BinaryOp) -> &'static str {
    match op {
        BinaryOp::Add => "+",
        BinaryOp::Sub => "-",
        BinaryOp::Mul => "*",
        BinaryOp::Div => "/",
        BinaryOp::Rem => "%",
        BinaryOp::Exp => "**",
        BinaryOp::Eq => "==",
        BinaryOp::NotEq => "!=",
        BinaryOp::StrictEq => "===",
        BinaryOp::StrictNotEq => "!==",
        BinaryOp::Lt => "<",
        BinaryOp::LtEq => "<=",
        BinaryOp::Gt => ">",
        BinaryOp::GtEq => ">=",
        BinaryOp::BitAnd => "&",
        BinaryOp::BitOr => "|",
        BinaryOp::BitXor => "^",
        BinaryOp::Shl => "<<",
        BinaryOp::Shr => ">>",
        BinaryOp::UShr => ">>>",
        BinaryOp::In => "in",
        BinaryOp::InstanceOf => "instanceof",
    }
}
