/// One element of dlib's `anet_type` as it is nested in the serialized file: a computing layer
/// (`add_layer<...>`) or a tag/skip marker (`add_tag_layer`, `add_skip_layer`).
enum NetworkNode: Equatable {
    case convolution(filters: Int, size: Int, stride: Int)
    case affine
    case relu
    case maxPool(size: Int, stride: Int)
    case averagePool(size: Int, stride: Int)
    /// `avg_pool_everything`: the mean of each channel.
    case averagePoolEverything
    /// `add_prev<tagN>`: the current tensor plus the one stored at tag N (zero-padded to the larger shape).
    case addPrevious(tag: Int)
    /// `fc_no_bias<N>`.
    case fullyConnected(outputs: Int)
    case tag(Int)
    case skip(Int)

    var isMarker: Bool {
        switch self {
        case .tag, .skip: return true
        default: return false
        }
    }

    /// dlib_face_recognition_resnet_model_v1's network from its input upwards
    /// (`examples/dnn_face_recognition_ex.cpp`): conv 7×7/2, 29 convolutions in residual blocks,
    /// average pooling and a 128-output fully connected layer.
    static let faceRecognitionResNet: [NetworkNode] = {
        // block<N,BN,stride> = BN<con<N,3,3,1,1,relu<BN<con<N,3,3,stride,stride,SUBNET>>>>>, input first.
        func block(_ n: Int, stride: Int) -> [NetworkNode] {
            [.convolution(filters: n, size: 3, stride: stride), .affine, .relu,
             .convolution(filters: n, size: 3, stride: 1), .affine]
        }
        // ares = relu<add_prev1<block<N,affine,1,tag1<SUBNET>>>>
        func residual(_ n: Int) -> [NetworkNode] {
            [.tag(1)] + block(n, stride: 1) + [.addPrevious(tag: 1), .relu]
        }
        // ares_down = relu<add_prev2<avg_pool<2,2,2,2,skip1<tag2<block<N,affine,2,tag1<SUBNET>>>>>>>
        func residualDown(_ n: Int) -> [NetworkNode] {
            [.tag(1)] + block(n, stride: 2)
                + [.tag(2), .skip(1), .averagePool(size: 2, stride: 2), .addPrevious(tag: 2), .relu]
        }
        var nodes: [NetworkNode] = [.convolution(filters: 32, size: 7, stride: 2), .affine, .relu,
                                    .maxPool(size: 3, stride: 2)]
        nodes += residual(32) + residual(32) + residual(32)                          // alevel4
        nodes += residualDown(64) + residual(64) + residual(64) + residual(64)       // alevel3
        nodes += residualDown(128) + residual(128) + residual(128)                   // alevel2
        nodes += residualDown(256) + residual(256) + residual(256)                   // alevel1
        nodes += residualDown(256)                                                   // alevel0
        nodes += [.averagePoolEverything, .fullyConnected(outputs: 128)]
        return nodes
    }()
}
