import Events

extension Identity {
    /// The `enrolled` JSON line of `facewatch enroll`, line break included: the name, how many
    /// descriptors were stored, and the store's file.
    public func enrolledLine(store: String) -> String {
        "{\"type\":\"enrolled\",\"name\":\(JSONString.literal(name)),\"descriptors\":\(descriptors.count),"
            + "\"store\":\(JSONString.literal(store))}\n"
    }
}
