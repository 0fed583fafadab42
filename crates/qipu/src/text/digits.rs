//! Numbers written by hand where each byte counts: FEN, EPD, the lines of
//! `qipu fen`.

/// The decimal digits of `n`, as `n.to_string()` writes them, kept in
/// `room`.
pub(crate) fn decimal(n: u64, room: &mut [u8; 20]) -> &[u8] {
    let digit = |d: u64| b'0' + (d % 10) as u8;
    // Most numbers written (clocks, plies, game numbers) are under a
    // thousand: without the loop.
    if n < 10 {
        room[0] = digit(n);
        return &room[..1];
    }
    if n < 100 {
        room[..2].copy_from_slice(&[digit(n / 10), digit(n)]);
        return &room[..2];
    }
    if n < 1000 {
        room[..3].copy_from_slice(&[digit(n / 100), digit(n / 10), digit(n)]);
        return &room[..3];
    }
    let mut at = room.len();
    let mut n = n;
    loop {
        at -= 1;
        room[at] = digit(n);
        n /= 10;
        if n == 0 {
            break;
        }
    }
    &room[at..]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_written_as_to_string_writes_them() {
        let mut cases: Vec<u64> = (0..2100).collect();
        cases.extend([9_999, 10_000, 65_535, 1 << 32, u64::from(u32::MAX), u64::MAX]);
        for n in cases {
            assert_eq!(decimal(n, &mut [0; 20]), n.to_string().as_bytes());
        }
    }
}
