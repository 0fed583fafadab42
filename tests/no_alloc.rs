//! Playing, undoing and generating moves never touch the heap.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

struct Counting;

thread_local! {
    /// Allocations made by this thread (the test harness allocates on others).
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|n| n.set(n.get() + 1));
        // SAFETY: forwards the caller's layout to the system allocator unchanged.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by `System.alloc` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn move_generation_play_and_undo_do_not_allocate() {
    let fens = [
        qipu::fen::START,
        "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
        "R2k5/1R7/9/9/9/9/9/9/9/4K4 b - - 0 1",
    ];
    let positions: Vec<qipu::Position> = fens.iter().map(|f| f.parse().unwrap()).collect();
    let before = ALLOCATIONS.with(Cell::get);
    let mut nodes = 0;
    for pos in &positions {
        nodes += qipu::perft(pos, 3);
        let mut p = pos.clone();
        for &m in p.legal_moves().iter() {
            let u = p.play_unchecked(m);
            nodes += p.is_check() as u64 + p.outcome().is_some() as u64;
            p.undo(u);
        }
    }
    let after = ALLOCATIONS.with(Cell::get);
    assert!(nodes > 79_666);
    assert_eq!(after - before, 0, "allocations during move generation, play and undo");
}
