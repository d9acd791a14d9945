import Foundation
internal import CCoreDataZlib

/// Raw DEFLATE (RFC 1951, no zlib header or checksum) through the system zlib: how Core
/// Data compresses the model it keeps in a SQLite store's `Z_MODELCACHE`.
enum RawDeflate {
    /// A stream that does not inflate.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// `data` compressed at zlib's default level.
    static func compress(_ data: Data) -> Data {
        var stream = z_stream()
        guard cdz_deflate_init_raw(&stream, Z_DEFAULT_COMPRESSION) == Z_OK else { return Data() }
        defer { deflateEnd(&stream) }
        var input = [UInt8](data)
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(input.count))) + 16)
        let produced: Int = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = source.baseAddress
                stream.avail_in = uInt(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = uInt(target.count)
                _ = deflate(&stream, Z_FINISH)
                return Int(stream.total_out)
            }
        }
        return Data(output.prefix(produced))
    }

    /// The bytes `data` inflates to.
    ///
    /// - Throws: ``Failure`` when `data` is not a complete raw DEFLATE stream, or inflates to
    ///   more than `limit` bytes.
    static func decompress(_ data: Data, limit: Int = 256 << 20) throws -> Data {
        var stream = z_stream()
        guard cdz_inflate_init_raw(&stream) == Z_OK else { throw Failure(description: "zlib could not start inflating") }
        defer { inflateEnd(&stream) }
        var input = [UInt8](data)
        var result = Data()
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        let status: Int32 = input.withUnsafeMutableBufferPointer { source in
            stream.next_in = source.baseAddress
            stream.avail_in = uInt(source.count)
            while true {
                let code: Int32 = chunk.withUnsafeMutableBufferPointer { target in
                    stream.next_out = target.baseAddress
                    stream.avail_out = uInt(target.count)
                    return inflate(&stream, Z_NO_FLUSH)
                }
                result.append(contentsOf: chunk.prefix(chunk.count - Int(stream.avail_out)))
                if code != Z_OK || result.count > limit { return code }
                if stream.avail_in == 0 && stream.avail_out != 0 { return Z_BUF_ERROR }
            }
        }
        guard status == Z_STREAM_END else {
            throw Failure(description: result.count > limit
                ? "the compressed data inflates to more than \(limit) bytes"
                : "the compressed data is damaged or truncated (zlib status \(status))")
        }
        return result
    }
}
