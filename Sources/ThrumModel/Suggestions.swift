/// Finds the known name a misspelt one was probably meant to be (for "did you mean" suggestions).
package enum Suggestions {
    /// The candidate closest to `name`: an exact case-insensitive match, else the one within a small
    /// edit distance (at most a third of the name's length, minimum 1). Nil when nothing is close.
    package static func closest(to name: String, in candidates: [String]) -> String? {
        let lowered = name.lowercased()
        if let match = candidates.first(where: { $0.lowercased() == lowered }) { return match }
        let limit = max(1, name.count / 3)
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(lowered, candidate.lowercased())
            if distance <= limit, distance < (best?.distance ?? Int.max) { best = (candidate, distance) }
        }
        return best?.name
    }

    /// Levenshtein distance between two strings.
    package static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
