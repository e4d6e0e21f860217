import CZlib

/// The `gzip` content coding (RFC 1952) through zlib: one-shot compression of a response body, and decompression for
/// the tests and any client that checks bytes. Pure functions over byte arrays; thread-safe (no shared state).
enum Gzip {
    /// `bytes` compressed as one gzip member (no file name, modification time 0, so the same input always gives the same
    /// bytes). `level` 1…9 (9, the default: smallest output; about 60 µs for a 3 KB fetch body on the build machine).
    static func compress(_ bytes: [UInt8], level: Int = 9) -> [UInt8] {
        precondition((1...9).contains(level), "gzip level 1…9")
        var stream = z_stream()
        precondition(lookd_deflate_init_gzip(&stream, Int32(level)) == Z_OK, "deflateInit2 failed (out of memory)")
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))) + 32)
        var input = bytes
        let status = input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer -> Int32 in
                stream.next_in = inBuffer.baseAddress
                stream.avail_in = uInt(inBuffer.count)
                stream.next_out = outBuffer.baseAddress
                stream.avail_out = uInt(outBuffer.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        precondition(status == Z_STREAM_END, "deflate did not finish within deflateBound")
        output.removeSubrange(Int(stream.total_out)...)
        return output
    }

    /// Decompresses one gzip member. Throws `CompressionError.malformed` when `bytes` is not exactly one valid member
    /// (bad header, checksum or length, truncated, bytes after it), `.tooLarge` when its output would exceed `limit`.
    static func decompress(_ bytes: [UInt8], limit: Int = 64 << 20) throws -> [UInt8] {
        var stream = z_stream()
        guard lookd_inflate_init_gzip(&stream) == Z_OK else { throw CompressionError.malformed("out of memory") }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16384)
        var input = bytes
        return try input.withUnsafeMutableBufferPointer { inBuffer in
            stream.next_in = inBuffer.baseAddress
            stream.avail_in = uInt(inBuffer.count)
            while true {
                let status = chunk.withUnsafeMutableBufferPointer { out -> Int32 in
                    stream.next_out = out.baseAddress
                    stream.avail_out = uInt(out.count)
                    return inflate(&stream, Z_NO_FLUSH)
                }
                output += chunk[0..<(chunk.count - Int(stream.avail_out))]
                guard output.count <= limit else { throw CompressionError.tooLarge(limit: limit) }
                switch status {
                case Z_STREAM_END:
                    guard stream.avail_in == 0 else { throw CompressionError.malformed("bytes after the end of the gzip member") }
                    return output
                case Z_OK: continue
                case Z_BUF_ERROR where stream.avail_in == 0: throw CompressionError.malformed("the gzip stream is truncated")
                default: throw CompressionError.malformed("not a valid gzip stream")
                }
            }
        }
    }
}
