import CBrotli

/// The `br` content coding (RFC 7932) through libbrotli: one-shot compression of a response body, and decompression
/// for the tests and any client that checks bytes. Pure functions over byte arrays; thread-safe (no shared state).
enum Brotli {
    /// `bytes` compressed as one brotli stream. `quality` 0…11 (11, the default: smallest output, slowest — about
    /// 4–9 ms for a 3 KB fetch body on the build machine, which is why responses are compressed once per cache fill,
    /// never per request); `window` 10…24, the base-2 logarithm of the window (22: 4 MiB, brotli's default).
    /// The same input and settings always give the same bytes.
    static func compress(_ bytes: [UInt8], quality: Int = 11, window: Int = 22) -> [UInt8] {
        precondition((0...11).contains(quality) && (10...24).contains(window), "brotli quality 0…11, window 10…24")
        var size = BrotliEncoderMaxCompressedSize(bytes.count)
        if size == 0 { size = bytes.count + 1024 }   // 0: the bound overflowed (inputs near the address space's size)
        var output = [UInt8](repeating: 0, count: size)
        let done = bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                BrotliEncoderCompress(Int32(quality), Int32(window), BROTLI_MODE_TEXT, input.count, input.baseAddress, &size, out.baseAddress)
            }
        }
        precondition(done == BROTLI_TRUE, "BrotliEncoderCompress failed within its own bound")
        output.removeSubrange(size...)
        return output
    }

    /// Decompresses one brotli stream. Throws `CompressionError.malformed` when `bytes` is not exactly one valid stream,
    /// `.tooLarge` when its output would exceed `limit` bytes.
    static func decompress(_ bytes: [UInt8], limit: Int = 64 << 20) throws -> [UInt8] {
        guard let decoder = BrotliDecoderCreateInstance(nil, nil, nil) else { throw CompressionError.malformed("out of memory") }
        defer { BrotliDecoderDestroyInstance(decoder) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16384)
        return try bytes.withUnsafeBufferPointer { input in
            var available = input.count
            var next = input.baseAddress
            while true {
                var room = chunk.count
                let result = chunk.withUnsafeMutableBufferPointer { out -> BrotliDecoderResult in
                    var at = out.baseAddress
                    return BrotliDecoderDecompressStream(decoder, &available, &next, &room, &at, nil)
                }
                output += chunk[0..<(chunk.count - room)]
                guard output.count <= limit else { throw CompressionError.tooLarge(limit: limit) }
                switch result {
                case BROTLI_DECODER_RESULT_SUCCESS:
                    guard available == 0 else { throw CompressionError.malformed("bytes after the end of the brotli stream") }
                    return output
                case BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT: continue
                case BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT: throw CompressionError.malformed("the brotli stream is truncated")
                default: throw CompressionError.malformed("not a valid brotli stream")
                }
            }
        }
    }
}
