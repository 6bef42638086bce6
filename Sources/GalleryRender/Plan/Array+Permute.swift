extension Array {
    /// Reorders the elements in place so that `self[i]` becomes the old `self[order[i]]`; `order`
    /// is a permutation of the indices. Each cycle is followed with swaps, so no copy of the array
    /// is made (100,000 gallery items are about 50 MB).
    package mutating func permute(by order: [Int]) {
        var order = order
        for start in order.indices where order[start] != start {
            var target = start
            while order[target] != start {
                let source = order[target]
                swapAt(target, source)
                order[target] = target
                target = source
            }
            order[target] = target
        }
    }
}
