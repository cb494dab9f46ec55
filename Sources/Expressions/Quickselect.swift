/// Hoare's quickselect: the k-th smallest (from 0) of the first `count` values of `a`. It
/// reorders them, leaving that value at index k with no greater value before it and no smaller
/// one after it, and allocates nothing.
func quickselect(_ a: UnsafeMutableBufferPointer<Double>, count: Int, k: Int) -> Double {
    var lo = 0, hi = count - 1
    while lo < hi {
        let pivot = a[(lo + hi) / 2]
        var i = lo, j = hi
        while i <= j {
            while a[i] < pivot { i += 1 }
            while a[j] > pivot { j -= 1 }
            if i <= j {
                a.swapAt(i, j)
                i += 1
                j -= 1
            }
        }
        if k <= j { hi = j } else if k >= i { lo = i } else { break }
    }
    return a[k]
}

/// After `quickselect(a, count: count, k: k)` with k + 1 < count: the next smallest value, the
/// least of those after index k.
func leastAfter(_ a: UnsafeMutableBufferPointer<Double>, count: Int, k: Int) -> Double {
    var least = a[k + 1]
    for i in (k + 1)..<count { least = min(least, a[i]) }
    return least
}
