//! Rewrites of a finished function's instructions that keep its behaviour and execute fewer
//! of them: a `Jump` to a `Return` returns where it is, and a `Move` into the register a
//! `Return` right after it returns returns the `Move`'s source (`n < 2 ? n : …` in a return:
//! `Move`, `Jump`, `Return` become one `Return`).
//!
//! Instructions only change in place (no pc moves, so jump targets, handlers, lines and callee
//! names stay valid). A rewrite is made only where the instructions involved are covered by the
//! same exception handlers: `Return` can throw (a derived constructor returning a primitive),
//! and the throw must reach the same `catch`.

use codemode_bytecode::{Handler, Op};

/// Applies the rewrites to `code` in place.
pub(super) fn run(code: &mut [Op], handlers: &[Handler]) {
    let same_handlers = |a: usize, b: usize| handlers.iter().all(|h| covers(h, a) == covers(h, b));
    for pc in 0..code.len() {
        if let Some(Op::Jump { target }) = code.get(pc)
            && let Some(&Op::Return { src }) = code.get(*target as usize)
            && same_handlers(pc, *target as usize)
        {
            code[pc] = Op::Return { src };
        }
    }
    for pc in 0..code.len().saturating_sub(1) {
        if let (Some(&Op::Move { dst, src }), Some(&Op::Return { src: returned })) =
            (code.get(pc), code.get(pc + 1))
            && dst == returned
            && same_handlers(pc, pc + 1)
        {
            code[pc] = Op::Return { src };
        }
    }
}

fn covers(h: &Handler, pc: usize) -> bool {
    (h.start as usize) <= pc && pc < (h.end as usize)
}

#[cfg(test)]
mod tests {
    use super::*;
    use codemode_bytecode::Target;

    fn handler(start: Target, end: Target) -> Handler {
        Handler { start, end, target: end, exception: 0 }
    }

    /// The rewrites keep behaviour: a jump to a return returns, a move before a return folds,
    /// and neither crosses a handler's edge.
    #[test]
    fn jumps_to_returns_return_in_place_within_the_same_handlers() {
        let mut code = vec![
            Op::Move { dst: 1, src: 0 },
            Op::Jump { target: 3 },
            Op::LoadUndef { dst: 1 },
            Op::Return { src: 1 },
        ];
        run(&mut code, &[]);
        assert_eq!(code[0], Op::Return { src: 0 });
        assert_eq!(code[1], Op::Return { src: 1 });
        assert_eq!(code[2], Op::LoadUndef { dst: 1 });

        // The jump is inside a try and the return outside it: nothing changes.
        let mut code = vec![
            Op::Move { dst: 1, src: 0 },
            Op::Jump { target: 3 },
            Op::Throw { src: 1 },
            Op::Return { src: 1 },
        ];
        let before = code.clone();
        run(&mut code, &[handler(0, 2)]);
        assert_eq!(code, before);

        // A move into another register than the one returned stays.
        let mut code = vec![Op::Move { dst: 2, src: 0 }, Op::Return { src: 1 }];
        run(&mut code, &[]);
        assert_eq!(code[0], Op::Move { dst: 2, src: 0 });
    }
}
