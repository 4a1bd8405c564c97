import Testing

@testable import RenderCore

/// A test entry: `tag` identifies it.
private struct Item: DueEntry {
    var frame: Int
    var tag: Int
    var sequence: Int = 0
}

/// Takes everything due by `now`, as tags in the order taken.
private func drain(_ list: inout DueList<Item>, by now: Int) -> [Int] {
    var tags: [Int] = []
    while let item = list.takeEarliest(dueBy: now) { tags.append(item.tag) }
    return tags
}

@Suite("Due list")
struct DueListTests {
    @Test("taken by frame, then in the order appended; entries not yet due stay")
    func order() {
        var list = DueList<Item>(capacity: 8)
        for (frame, tag) in [(30, 1), (10, 2), (30, 3), (20, 4), (10, 5), (50, 6)] {
            let added = list.append(Item(frame: frame, tag: tag))
            #expect(added)
        }
        let earliest = list.earliestFrame
        #expect(earliest == 10)
        let first = drain(&list, by: 30)
        #expect(first == [2, 5, 4, 1, 3])
        let (count, next) = (list.count, list.earliestFrame)
        #expect(count == 1 && next == 50)
        let early = drain(&list, by: 49)
        #expect(early == [])
        let last = drain(&list, by: 50)
        #expect(last == [6])
        let empty = list.earliestFrame
        #expect(empty == .max)
    }

    @Test("a full list refuses an entry and keeps its contents; room comes back as entries are taken")
    func capacity() {
        var list = DueList<Item>(capacity: 2)
        let added = [list.append(Item(frame: 5, tag: 1)), list.append(Item(frame: 5, tag: 2))]
        let refused = !list.append(Item(frame: 1, tag: 3))
        #expect(added == [true, true] && refused)
        let (count, earliest) = (list.count, list.earliestFrame)
        #expect(count == 2 && earliest == 5)
        let taken = list.takeEarliest(dueBy: 5)?.tag
        #expect(taken == 1)
        let again = list.append(Item(frame: 5, tag: 4))
        #expect(again)
        let rest = drain(&list, by: 5)
        #expect(rest == [2, 4])  // appended later: taken later at the same frame
    }

    @Test("removeAll drops the matching entries; the order of the rest is kept")
    func removal() {
        var list = DueList<Item>(capacity: 8)
        for tag in 0..<6 { _ = list.append(Item(frame: 7, tag: tag)) }
        list.removeAll { $0.tag % 2 == 0 }
        let count = list.count
        #expect(count == 3)
        let rest = drain(&list, by: 7)
        #expect(rest == [1, 3, 5])
    }
}
