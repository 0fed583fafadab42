//! Errors are typed: a caller matches on what is wrong, and the message is
//! the error's `Display`, as the commands print it.

use qipu::formats::{self, UnreadableReason as Reason, ccbridge, xqf};

fn reason(bytes: &[u8]) -> (Reason, bool, String) {
    let e = formats::read(bytes, None).unwrap_err();
    (e.reason.clone(), e.holds_no_record, e.to_string())
}

#[test]
fn files_of_no_record_say_why() {
    assert_eq!(reason(b""), (Reason::Empty, true, "empty file".into()));
    assert_eq!(reason(b" \n\t"), (Reason::WhiteSpace, true, "only white space".into()));
    let (why, none, message) = reason(&[0u8, 1, 2, 3, 4, 5, 6, 7, 8, 0x10].repeat(10));
    assert_eq!((why, none), (Reason::Binary { start: vec![0, 1, 2, 3] }, true));
    assert_eq!(
        message,
        "binary data that is not a known record format (it starts with 00 01 02 03; an XQF file starts with 'XQ')"
    );
    let (why, none, _) = reason("这是一段说明文字，没有棋谱。\n第二行也没有。\n".as_bytes());
    assert!(matches!(why, Reason::NoLineOfMoves | Reason::NotAGame), "{why}");
    assert!(none);
}

#[test]
fn damaged_files_hold_their_format_error() {
    let (why, none, message) = reason(b"XQ\x0a");
    let Reason::Xqf(e) = why else { panic!("{message}") };
    assert_eq!(e.kind, xqf::XqfErrorKind::Truncated(xqf::Truncated::Header { len: 3 }));
    assert!(!none);
    assert_eq!(message, "byte 3: truncated: 3 bytes, but an XQF header has 1024");

    let mut cbr = b"CCBridge Record\0".to_vec();
    cbr.resize(100, 0);
    cbr[19] = 7;
    let (why, _, message) = reason(&cbr);
    let Reason::Ccbridge(e) = why else { panic!("{message}") };
    assert_eq!((e.offset, e.kind), (19, ccbridge::CcbridgeErrorKind::Version(7)));
    assert_eq!(message, "byte 19: CBR version 7: only versions 1 and 2 are known");

    let text = "<?xml version=\"1.0\"?>\n<ChineseChessRecord><MoveList><Move value=\"00-00\"/><Move value=\"00-00\" x=\"1\"/></MoveList></ChineseChessRecord>\n";
    let (why, _, message) = reason(text.as_bytes());
    let Reason::Cbf(e) = why else { panic!("{message}") };
    assert_eq!(e.kind, formats::cbf::CbfErrorKind::UnknownAttribute { name: "x".into() });
    assert_eq!(message, "line 2, column 52: <Move> has an attribute 'x': only 'value' and 'end' are known");
}

#[test]
fn a_stream_that_cannot_be_read_keeps_the_io_error_kind() {
    struct Broken;
    impl std::io::Read for Broken {
        fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
            Err(std::io::Error::new(std::io::ErrorKind::PermissionDenied, "no access"))
        }
    }
    let mut builder = qipu::record::RecordBuilder::default();
    let e = formats::stream::read_stream_with(Broken, None, &mut builder, |_| {}).unwrap_err();
    assert_eq!(
        e.reason,
        Reason::CannotRead { kind: std::io::ErrorKind::PermissionDenied, message: "no access".into() }
    );
    assert_eq!(e.to_string(), "cannot read: no access");
}

/// A line of JSON that is no record is an unreadable game, its reason told.
#[test]
fn a_damaged_json_record_is_an_unreadable_game_with_its_reason() {
    let line = |nodes: &str, result: &str| {
        format!("{{\"tags\":[],\"fen\":null,\"result\":{result},\"comment\":null,\"nodes\":[{nodes}]}}")
    };
    let node = |id: u32, parent: u32, mv: &str| {
        format!(
            "{{\"id\":{id},\"parent\":{parent},\"move\":{mv},\"text\":null,\"comment\":null,\"comment_before\":null,\"nags\":[]}}"
        )
    };
    let twice = format!("{},{}", node(1, 0, "\"h2e2\""), node(1, 0, "\"h2e3\""));
    let cases = [
        (line("", "\"2-0\""), "JSON record: result \"2-0\" is not 1-0, 0-1, 1/2-1/2 or *"),
        (line(&node(1, 5, "\"h2e2\""), "null"), "JSON record: node 1: parent 5 not listed before it"),
        (line(&node(1, 0, "\"zz\""), "null"), "JSON record: node 1: \"zz\" is not a move"),
        (line(&node(1, 0, "null"), "null"), "JSON record: node 1: neither move nor text"),
        (line(&twice, "null"), "JSON record: node id 1 listed twice"),
    ];
    for (text, message) in cases {
        let games = formats::json::read(&text);
        assert_eq!(games[0].unreadable().map(|w| w.message.as_str()), Some(message), "{text}");
    }
}

/// The inputs of a batch that cannot be read say why, typed, and the
/// batch hands the same reason to its sink.
#[cfg(unix)]
#[test]
fn batch_inputs_that_cannot_be_read_say_why() {
    use qipu::batch::{self, Batch, Event, Input};
    let dir = std::env::temp_dir().join(format!("qipu-errors-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = std::process::Command::new("mkfifo").arg(dir.join("pipe.pgn")).status().unwrap();
    assert!(fifo.success());
    let inputs = batch::expand(&[dir.clone(), dir.join("missing.pgn")]).inputs;
    let pipe = Reason::NotOpened { kind: "a named pipe (FIFO)" };
    assert!(matches!(&inputs[0], Input::Skipped { reason, .. } if *reason == pipe), "{inputs:?}");
    assert!(matches!(&inputs[1], Input::Problem { reason: Reason::NotFound, .. }), "{inputs:?}");
    let mut told = Vec::new();
    Batch::new()
        .threads(1)
        .run(&inputs, qipu::record::RecordBuilder::default, |_, event| {
            match event {
                Event::NoRecord(why) => told.push((true, why)),
                Event::Unreadable(why) => told.push((false, why)),
                Event::Games { .. } | Event::Done => {}
            }
            Ok::<(), ()>(())
        })
        .unwrap();
    assert_eq!(told, [(true, pipe), (false, Reason::NotFound)]);
    std::fs::remove_dir_all(&dir).unwrap();
}
