use super::ReadMemo;

#[test]
fn keeps_the_last_readings_by_their_whole_text() {
    let mut recent = ReadMemo::new(2, 8);
    recent.put("a", 1);
    recent.put("b", 2);
    assert_eq!(recent.get("a", |_| true), Some(1));
    assert_eq!(
        recent.get("b", |v| *v == 3),
        None,
        "a reading that does not fit is not taken"
    );
    recent.put("c", 3);
    assert_eq!(recent.get("a", |_| true), None, "the oldest was displaced");
    assert_eq!(recent.get("b", |_| true), Some(2));
    assert_eq!(recent.get("c", |_| true), Some(3));
    recent.put("too long a text", 4);
    assert_eq!(recent.get("too long a text", |_| true), None);
    assert_eq!(recent.get("c", |_| true), Some(3));
    assert_eq!(recent.get("", |_| true), None);
}
