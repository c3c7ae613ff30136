//! RULES.md section 4: ids across a conversation.

use mcp_envelope::transport::ids::{IdFault, InFlight};
use mcp_envelope::{Id, Revision};

#[test]
fn up_to_2025_11_25_an_id_is_never_reused_in_a_session() {
    for revision in [Revision::V2024_11_05, Revision::V2025_03_26, Revision::V2025_06_18, Revision::V2025_11_25] {
        let mut ids = InFlight::new(revision);
        assert_eq!(ids.sent(&Id::Int(1)), Ok(()));
        assert_eq!(ids.received(&Id::Int(1)), Ok(()));
        assert_eq!(ids.sent(&Id::Int(1)), Err(IdFault::Reused(Id::Int(1))), "{revision}");
    }
}

#[test]
fn from_2026_07_28_an_id_is_free_again_once_answered() {
    let mut ids = InFlight::new(Revision::V2026_07_28);
    assert_eq!(ids.sent(&Id::from("a")), Ok(()));
    assert_eq!(ids.sent(&Id::from("a")), Err(IdFault::Reused(Id::from("a"))));
    assert_eq!(ids.received(&Id::from("a")), Ok(()));
    assert_eq!(ids.sent(&Id::from("a")), Ok(()));
    assert!(ids.is_in_flight(&Id::from("a")));
}

#[test]
fn a_response_to_no_request_in_flight_is_flagged() {
    let mut ids = InFlight::new(Revision::V2026_07_28);
    assert_eq!(ids.received(&Id::Int(9)), Err(IdFault::Unknown(Id::Int(9))));
    ids.sent(&Id::Int(9)).unwrap();
    ids.received(&Id::Int(9)).unwrap();
    assert_eq!(ids.received(&Id::Int(9)), Err(IdFault::Unknown(Id::Int(9))));
}

#[test]
fn string_and_integer_ids_are_different_ids() {
    let mut ids = InFlight::new(Revision::V2026_07_28);
    ids.sent(&Id::Int(1)).unwrap();
    assert_eq!(ids.sent(&Id::from("1")), Ok(()));
    assert_eq!(ids.len(), 2);
}

#[test]
fn observe_follows_parsed_messages() {
    let mut parser: mcp_envelope::Parser = mcp_envelope::Parser::new(Revision::V2026_07_28);
    let mut ids = InFlight::new(Revision::V2026_07_28);
    for (line, expected) in [
        (r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#, Ok(())),
        (r#"{"jsonrpc":"2.0","method":"notifications/progress"}"#, Ok(())),
        (r#"{"jsonrpc":"2.0","id":1,"result":{}}"#, Ok(())),
        (r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"late"}}"#, Err(IdFault::Unknown(Id::Int(1)))),
        (r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse"}}"#, Ok(())),
    ] {
        let envelope = parser.parse(line.as_bytes()).unwrap();
        assert_eq!(ids.observe(envelope.single().unwrap()), expected, "{line}");
    }
    assert!(ids.is_empty());
}

/// A model of the tracker, as plain as can be: a list of ids.
#[test]
fn the_tracker_matches_a_list_model_on_a_long_random_conversation() {
    for revision in [Revision::V2025_06_18, Revision::V2026_07_28] {
        let mut ids = InFlight::new(revision);
        let (mut in_flight, mut used): (Vec<i64>, Vec<i64>) = (Vec::new(), Vec::new());
        let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..20_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let id = (seed % 64) as i64;
            if seed & (1 << 40) == 0 {
                let taken =
                    if revision == Revision::V2026_07_28 { in_flight.contains(&id) } else { used.contains(&id) };
                assert_eq!(ids.sent(&Id::Int(id)).is_err(), taken);
                if !taken {
                    in_flight.push(id);
                    used.push(id);
                }
            } else {
                let known = in_flight.iter().position(|&x| x == id);
                assert_eq!(ids.received(&Id::Int(id)).is_ok(), known.is_some());
                if let Some(at) = known {
                    in_flight.swap_remove(at);
                }
            }
            assert_eq!(ids.len(), in_flight.len());
        }
    }
}

#[test]
fn the_requests_still_in_flight_are_listed_until_answered() {
    let mut ids = InFlight::new(Revision::V2026_07_28);
    for id in [Id::from("b"), Id::Int(7), Id::Int(3), Id::from("a")] {
        ids.sent(&id).unwrap();
    }
    ids.received(&Id::Int(7)).unwrap();
    let pending: Vec<Id<'_>> = ids.pending().collect();
    assert_eq!(pending, [Id::Int(3), Id::from("a"), Id::from("b")]);
}

#[test]
fn a_request_is_in_flight_only_between_its_sending_and_its_answer() {
    let mut ids = InFlight::new(Revision::V2026_07_28);
    assert!(!ids.is_in_flight(&Id::Int(1)) && ids.is_empty());
    ids.sent(&Id::Int(1)).unwrap();
    assert!(ids.is_in_flight(&Id::Int(1)) && !ids.is_in_flight(&Id::Int(2)) && !ids.is_empty());
    ids.received(&Id::Int(1)).unwrap();
    assert!(!ids.is_in_flight(&Id::Int(1)) && ids.is_empty());
}

#[test]
fn only_a_request_still_in_flight_can_be_withdrawn_and_its_id_used_again() {
    let mut ids = InFlight::new(Revision::V2025_11_25);
    // Refused by HTTP before any answer: as if never sent.
    assert_eq!(ids.sent(&Id::Int(1)), Ok(()));
    ids.withdraw(&Id::Int(1));
    assert!(!ids.is_in_flight(&Id::Int(1)));
    assert_eq!(ids.sent(&Id::Int(1)), Ok(()), "a withdrawn id may be sent again");
    // Answered, then "withdrawn": it was sent and answered, so it stays used.
    assert_eq!(ids.received(&Id::Int(1)), Ok(()));
    ids.withdraw(&Id::Int(1));
    assert_eq!(ids.sent(&Id::Int(1)), Err(IdFault::Reused(Id::Int(1))));
}
