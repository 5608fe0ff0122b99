"""Rewriting a function's `if`/`while`/`for range` statements into calls that dispatch at run
time (`framework.jit.dy2static.runtime`), as Paddle's dy2static transformers do.

- `if t: A else: B` becomes two nested functions over the variables the branches assign, and
  `(vars) = _jst.convert_ifelse(t, true_fn, false_fn, (current values))`.
- `while t: A` becomes a cond and a body function over the variables the body assigns, and
  `(vars) = _jst.convert_while(cond_fn, body_fn, (current values))`.
- `for i in range(...)` becomes such a while loop over a hidden counter.
- `a if t else b` becomes `_jst.convert_ifelse(t, lambda: a, lambda: b, ())`.
- `break` / `continue` in those loops set flag variables; the rest of the body runs under
  `if not flag`, and the loop condition checks the break flag.
- An early `return` in an `if` branch (outside loops) is moved to the end: the statements after
  the `if` are copied into the branch that does not return, so every branch ends in a return
  and the `if` becomes `return _jst.convert_ifelse(...)`.

A statement that cannot be rewritten (a `return` inside a loop, `break` out of a Python `for`
over a list, a loop `else:`, `global`/`nonlocal`, `yield`) stays Python, its condition wrapped
in `_jst.python_bool`, which names the file and line if the condition turns out to be a
tensor computed from the inputs.
"""

from __future__ import annotations

import ast
import copy
import itertools

RUNTIME = "_jst"
PREFIX = "_jst_"  # generated names; their functions are never loop or branch variables


def has_control_flow(function: ast.FunctionDef) -> bool:
    kinds = ast.If | ast.While | ast.For | ast.IfExp
    return any(isinstance(n, kinds) for n in _walk_local(function.body))


class _ConditionalExpressions(ast.NodeTransformer):
    """`a if t else b` -> `_jst.convert_ifelse(t, lambda: a, lambda: b, ())`."""

    def visit_IfExp(self, node: ast.IfExp) -> ast.expr:
        self.generic_visit(node)
        call = _runtime_call(
            "convert_ifelse",
            convert_test(node.test),
            _thunk(node.body),
            _thunk(node.orelse),
            ast.Tuple([], ast.Load()),
        )
        return ast.copy_location(call, node)


class Transcriber:
    def __init__(self, filename: str, line_offset: int = 0) -> None:
        self.filename = filename
        self.line_offset = line_offset  # the parsed source starts at this line of the file
        self._ids = itertools.count()

    # --- entry ----------------------------------------------------------------------------------
    def function(self, node: ast.FunctionDef) -> ast.FunctionDef:
        node.body = [_ConditionalExpressions().visit(stmt) for stmt in node.body]
        node.body = self.block(fold_returns(node.body), in_loop=False)
        return node

    def block(self, stmts: list[ast.stmt], in_loop: bool) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for stmt in stmts:
            out.extend(self.statement(stmt, in_loop))
        return out

    def statement(self, stmt: ast.stmt, in_loop: bool) -> list[ast.stmt]:
        if isinstance(stmt, ast.If):
            return self.if_(stmt, in_loop)
        if isinstance(stmt, ast.While):
            return self.while_(stmt)
        if isinstance(stmt, ast.For):
            return self.for_(stmt)
        if isinstance(stmt, ast.With | ast.AsyncWith):
            stmt.body = self.block(stmt.body, in_loop)
        elif isinstance(stmt, ast.Try):
            stmt.body = self.block(stmt.body, in_loop)
            stmt.orelse = self.block(stmt.orelse, in_loop)
            stmt.finalbody = self.block(stmt.finalbody, in_loop)
            for handler in stmt.handlers:
                handler.body = self.block(handler.body, in_loop)
        return [stmt]

    # --- if -------------------------------------------------------------------------------------
    def if_(self, node: ast.If, in_loop: bool) -> list[ast.stmt]:
        returns = _contains(node, ast.Return)
        reason = _blocker(node)
        if reason is None and _has_jump(node.body + node.orelse):
            reason = "a `break`/`continue` in it leaves a loop that stays Python"
        if reason is None and returns and (in_loop or not _always_returns(node)):
            reason = "a `return` in it is inside a loop"
        if reason is not None:
            return [self._guarded(node, reason, in_loop)]
        body = self.block(node.body, in_loop=False)
        orelse = self.block(node.orelse, in_loop=False) or [ast.Pass()]
        names = assigned_names(body + orelse)
        k = next(self._ids)
        true_fn, false_fn = f"{PREFIX}true_{k}", f"{PREFIX}false_{k}"
        tail = [] if returns else [_return_tuple(names)]
        call = _runtime_call(
            "convert_ifelse",
            convert_test(node.test),
            _name(true_fn),
            _name(false_fn),
            _current_values(names),
        )
        result: ast.stmt = ast.Return(call) if returns else _assign_tuple(names, call)
        out = [_def(true_fn, names, body + tail), _def(false_fn, names, orelse + tail), result]
        return [ast.copy_location(s, node) for s in out]

    # --- loops ----------------------------------------------------------------------------------
    def while_(self, node: ast.While) -> list[ast.stmt]:
        reason = _blocker(node)
        if reason is None and node.orelse:
            reason = "it has an `else:` clause"
        if reason is None and _contains(node, ast.Return):
            reason = "a `return` inside the loop"
        k = next(self._ids)
        brk, cont = f"{PREFIX}break_{k}", f"{PREFIX}continue_{k}"
        body = node.body
        uses_break, uses_continue = _jumps(body, ast.Break), _jumps(body, ast.Continue)
        if reason is None and (uses_break or uses_continue):
            try:
                used = [f for f, u in ((brk, uses_break), (cont, uses_continue)) if u]
                body = rewrite_jumps(copy.deepcopy(body), brk, cont, used)
            except _Unconvertible as error:
                reason = str(error)
        if reason is not None:
            return [self._guarded(node, reason, True)]
        prologue = [_assign(cont, ast.Constant(False))] if uses_continue else []
        body = prologue + self.block(body, in_loop=False)
        test = convert_test(node.test)
        if uses_break:
            not_broken = _runtime_call("not_", _name(brk))
            test = _runtime_call("and_", _thunk(not_broken), _thunk(test))
        names = assigned_names(body)
        for flag, used in ((brk, uses_break), (cont, uses_continue)):
            if used and flag not in names:
                names.append(flag)
        cond_fn, body_fn = f"{PREFIX}cond_{k}", f"{PREFIX}body_{k}"
        inits = [_assign(flag, ast.Constant(False)) for flag in (brk, cont) if flag in names]
        call = _runtime_call(
            "convert_while", _name(cond_fn), _name(body_fn), _current_values(names)
        )
        out = [
            *inits,
            _def(cond_fn, names, [ast.Return(test)]),
            _def(body_fn, names, body + [_return_tuple(names)]),
            _assign_tuple(names, call),
        ]
        return [ast.copy_location(s, node) for s in out]

    def for_(self, node: ast.For) -> list[ast.stmt]:
        iterator = node.iter
        is_range = (
            isinstance(iterator, ast.Call)
            and isinstance(iterator.func, ast.Name)
            and iterator.func.id == "range"
            and not iterator.keywords
            and 1 <= len(iterator.args) <= 3
            and not any(isinstance(a, ast.Starred) for a in iterator.args)
            and isinstance(node.target, ast.Name)
        )
        if not is_range or node.orelse or _contains(node, ast.Return) or _blocker(node):
            node.body = self.block(node.body, in_loop=True)
            return [node]
        k = next(self._ids)
        index, stop, step = f"{PREFIX}i_{k}", f"{PREFIX}stop_{k}", f"{PREFIX}step_{k}"
        setup = ast.Assign(
            [ast.Tuple([_name(index, store=True), _name(stop, store=True),
                        _name(step, store=True)], ast.Store())],
            _runtime_call("range_args", *iterator.args),
        )  # fmt: skip
        advance = [
            ast.Assign([_name(node.target.id, store=True)], _name(index)),
            _assign(index, ast.BinOp(_name(index), ast.Add(), _name(step))),
        ]
        loop = ast.While(
            _runtime_call("range_cond", _name(index), _name(stop), _name(step)),
            advance + node.body,
            [],
        )
        ast.copy_location(setup, node)
        ast.copy_location(loop, node)
        return [setup, *self.while_(loop)]

    # --- statements that stay Python ------------------------------------------------------------
    def _guarded(self, node: ast.If | ast.While, reason: str, in_loop: bool) -> ast.stmt:
        keyword = "if" if isinstance(node, ast.If) else "while"
        where = (
            f"{self.filename}:{node.lineno + self.line_offset}: "
            f"`{keyword} {ast.unparse(node.test)}:`"
        )
        node.test = ast.copy_location(
            _runtime_call("python_bool", node.test, ast.Constant(where), ast.Constant(reason)),
            node.test,
        )
        inner = in_loop or isinstance(node, ast.While)
        node.body = self.block(node.body, in_loop=inner)
        node.orelse = self.block(node.orelse, in_loop=in_loop)
        return node


# --- early returns ------------------------------------------------------------------------------
def fold_returns(stmts: list[ast.stmt]) -> list[ast.stmt]:
    """Make every `return` in an `if` (outside loops) the last statement of a branch that ends
    the function: what follows the `if` is copied into its branches that do not return."""
    out: list[ast.stmt] = []
    for index, stmt in enumerate(stmts):
        if isinstance(stmt, ast.Return):
            out.append(stmt)
            return out  # anything after it is dead code
        if isinstance(stmt, ast.If) and _contains(stmt, ast.Return) and _blocker(stmt) is None:
            rest = stmts[index + 1 :]
            stmt.body = fold_returns(stmt.body)
            stmt.orelse = fold_returns(stmt.orelse)
            if not _ends_in_return(stmt.body):
                stmt.body = fold_returns(stmt.body + copy.deepcopy(rest) + _implicit_return(rest))
            if not _ends_in_return(stmt.orelse):
                stmt.orelse = fold_returns(
                    stmt.orelse + copy.deepcopy(rest) + _implicit_return(rest)
                )
            out.append(stmt)
            return out
        out.append(stmt)
    return out


def _implicit_return(rest: list[ast.stmt]) -> list[ast.stmt]:
    return [] if rest and _ends_in_return(rest) else [ast.Return(ast.Constant(None))]


def _ends_in_return(stmts: list[ast.stmt]) -> bool:
    if not stmts:
        return False
    last = stmts[-1]
    if isinstance(last, ast.Return):
        return True
    return isinstance(last, ast.If) and _always_returns(last)


def _always_returns(node: ast.If) -> bool:
    return _ends_in_return(node.body) and _ends_in_return(node.orelse)


# --- break / continue ---------------------------------------------------------------------------
class _Unconvertible(Exception):
    pass


def rewrite_jumps(stmts: list[ast.stmt], brk: str, cont: str, used: list[str]) -> list[ast.stmt]:
    """`break` -> `brk = True`, `continue` -> `cont = True`; what follows runs under
    `if not (brk or cont)` (over the `used` flags)."""
    out: list[ast.stmt] = []
    for index, stmt in enumerate(stmts):
        if isinstance(stmt, ast.Break | ast.Continue):
            flag = brk if isinstance(stmt, ast.Break) else cont
            out.append(ast.copy_location(_assign(flag, ast.Constant(True)), stmt))
            return out
        if isinstance(stmt, ast.If) and _has_jump([stmt]):
            stmt.body = rewrite_jumps(stmt.body, brk, cont, used)
            stmt.orelse = rewrite_jumps(stmt.orelse, brk, cont, used)
            out.append(stmt)
            rest = rewrite_jumps(stmts[index + 1 :], brk, cont, used)
            if rest:
                jumped: ast.expr = _name(used[0])
                for flag in used[1:]:
                    jumped = _runtime_call("or_", _thunk(jumped), _thunk(_name(flag)))
                guard = ast.If(_runtime_call("not_", jumped), rest, [])
                out.append(ast.copy_location(guard, stmt))
            return out
        if _has_jump([stmt]):
            raise _Unconvertible(
                f"a `break`/`continue` inside a `{type(stmt).__name__.lower()}` block"
            )
        out.append(stmt)
    return out


def _has_jump(stmts: list[ast.stmt]) -> bool:
    return any(isinstance(n, ast.Break | ast.Continue) for n in _walk_local(stmts, loops=False))


def _jumps(stmts: list[ast.stmt], kind: type) -> bool:
    return any(isinstance(n, kind) for n in _walk_local(stmts, loops=False))


# --- analysis -----------------------------------------------------------------------------------
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef, ast.ListComp,
           ast.SetComp, ast.DictComp, ast.GeneratorExp)  # fmt: skip


def _walk_local(stmts: list[ast.AST], loops: bool = True):
    """Nodes of `stmts` outside nested scopes (and, with loops=False, outside nested loops)."""
    stack = list(reversed(stmts))
    while stack:
        node = stack.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if isinstance(child, _SCOPES):
                continue
            if not loops and isinstance(child, ast.While | ast.For | ast.AsyncFor):
                continue
            stack.append(child)


def _contains(node: ast.AST, kind: type) -> bool:
    return any(isinstance(n, kind) for n in _walk_local([node]))


def _blocker(node: ast.AST) -> str | None:
    for child in _walk_local([node]):
        if isinstance(child, ast.Global | ast.Nonlocal):
            return "it declares `global`/`nonlocal` names"
        if isinstance(child, ast.Yield | ast.YieldFrom | ast.Await):
            return "it yields or awaits"
    return None


def assigned_names(stmts: list[ast.stmt]) -> list[str]:
    """Names the statements bind (outside nested scopes), in first-assignment order; the
    rewriter's own functions are left out."""
    names: list[str] = []
    for node in _walk_local(stmts):
        found = None
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store | ast.Del):
            found = node.id
        elif isinstance(node, ast.alias):
            found = (node.asname or node.name).split(".")[0]
        elif isinstance(node, ast.ExceptHandler) and node.name:
            found = node.name
        if found and found not in names:
            names.append(found)
    return names


def convert_test(test: ast.expr) -> ast.expr:
    """`a and b`, `a or b`, `not a` in a condition, as calls that work on tensors too."""
    if isinstance(test, ast.BoolOp):
        op = "and_" if isinstance(test.op, ast.And) else "or_"
        values = [convert_test(v) for v in test.values]
        result = values[0]
        for value in values[1:]:
            result = _runtime_call(op, _thunk(result), _thunk(value))
        return ast.copy_location(result, test)
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return ast.copy_location(_runtime_call("not_", convert_test(test.operand)), test)
    return test


# --- building nodes -----------------------------------------------------------------------------
def _name(identifier: str, store: bool = False) -> ast.Name:
    return ast.Name(identifier, ast.Store() if store else ast.Load())


def _assign(identifier: str, value: ast.expr) -> ast.Assign:
    return ast.Assign([_name(identifier, store=True)], value)


def _runtime_call(function: str, *args: ast.expr) -> ast.Call:
    return ast.Call(ast.Attribute(_name(RUNTIME), function, ast.Load()), list(args), [])


def _thunk(value: ast.expr) -> ast.Lambda:
    no_args = ast.arguments([], [], None, [], [], None, [])
    return ast.Lambda(no_args, value)


def _def(name: str, params: list[str], body: list[ast.stmt]) -> ast.FunctionDef:
    args = ast.arguments([], [ast.arg(p) for p in params], None, [], [], None, [])
    return ast.FunctionDef(name=name, args=args, body=body or [ast.Pass()], decorator_list=[])


def _return_tuple(names: list[str]) -> ast.Return:
    return ast.Return(ast.Tuple([_name(n) for n in names], ast.Load()))


def _assign_tuple(names: list[str], value: ast.expr) -> ast.stmt:
    if not names:
        return ast.Expr(value)
    return ast.Assign([ast.Tuple([_name(n, store=True) for n in names], ast.Store())], value)


def _current_values(names: list[str]) -> ast.Tuple:
    scope = ast.Call(_name("locals"), [], [])
    values = [_runtime_call("lookup", scope, ast.Constant(n)) for n in names]
    return ast.Tuple(values, ast.Load())
