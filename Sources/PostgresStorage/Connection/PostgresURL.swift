import Foundation

/// A `postgres://` or `postgresql://` URL taken apart as libpq takes one:
/// `postgresql://[user[:password]@][host][:port][/database][?name=value&…]`, an IPv6
/// address in brackets, every part percent-decoded. What the parts mean is
/// `PostgresAddress`'s concern; this only says where they are, or what stops the URL being
/// read, naming the part.
struct PostgresURL {
    /// The user name, the host, the port and the database as written (decoded), or nil
    /// when the URL has none.
    var user: String?
    var host: String?
    var port: String?
    var database: String?
    /// The query's parameters, in order, decoded.
    var parameters: [(name: String, value: String)] = []
    /// The URL as messages show it (``shown(_:)``).
    let shown: String

    /// Takes `text` apart.
    init(_ text: String) throws(PostgresStorageError) {
        shown = Self.shown(text)
        let bytes = Array(text.utf8)
        guard let start = Self.schemeEnd(of: bytes), Self.isPostgres(bytes[..<start]) else {
            throw .badAddress(shown, reason: tr("it is not a postgres:// URL"))
        }
        let authorityEnd = bytes[start...].firstIndex { $0 == .slash || $0 == .question } ?? bytes.endIndex
        var position = start
        // Up to the last @ (an @ in a password is often left unencoded).
        if let at = bytes[start..<authorityEnd].lastIndex(of: .at) {
            let colon = bytes[start..<at].firstIndex(of: .colon)
            if let colon, colon + 1 < at { throw Self.passwordRefused(shown) }
            user = try decoded(bytes[start..<(colon ?? at)], tr("the user name"))
            position = at + 1
        }
        try readHostAndPort(bytes[position..<authorityEnd])
        guard authorityEnd < bytes.endIndex else { return }
        var queryStart = authorityEnd
        if bytes[authorityEnd] == .slash {
            queryStart = bytes[authorityEnd...].firstIndex(of: .question) ?? bytes.endIndex
            database = try decoded(bytes[(authorityEnd + 1)..<queryStart], tr("the database name"))
        }
        if queryStart < bytes.endIndex { try readParameters(bytes[(queryStart + 1)...]) }
    }

    /// The error of a URL holding a password.
    static func passwordRefused(_ shown: String) -> PostgresStorageError {
        .badAddress(shown, reason: tr("a password on the command line is seen by every user of this computer; give it in PGPASSWORD or ~/.pgpass"))
    }

    /// `host[:port]` or `[IPv6 address][:port]`, the authority after any user.
    private mutating func readHostAndPort(_ bytes: ArraySlice<UInt8>) throws(PostgresStorageError) {
        let hostEnd: Int
        if bytes.first == .openBracket {
            guard let close = bytes.firstIndex(of: .closeBracket) else {
                throw .badAddress(shown, reason: tr("the [ of an IPv6 address is not closed by ]"))
            }
            let address = try decoded(bytes[(bytes.startIndex + 1)..<close], tr("the host"))
            guard !address.isEmpty else { throw .badAddress(shown, reason: tr("the brackets [] hold no IPv6 address")) }
            guard Self.isIPv6(address) else {
                throw .badAddress(shown, reason: tr("[%@] is not an IPv6 address", Self.visible(bytes[(bytes.startIndex + 1)..<close])))
            }
            host = address
            hostEnd = close + 1
            guard hostEnd == bytes.endIndex || bytes[hostEnd] == .colon || bytes[hostEnd] == .comma else {
                throw .badAddress(shown, reason: tr("the IPv6 address [%@] is followed by %@, where only a port (:5432), a database (/name) or parameters (?name=value) may come",
                                                    Self.visible(bytes[(bytes.startIndex + 1)..<close]), Self.visible(bytes[hostEnd...])))
            }
        } else {
            hostEnd = bytes.firstIndex { $0 == .colon || $0 == .comma } ?? bytes.endIndex
            let name = try decoded(bytes[..<hostEnd], tr("the host"))
            host = name.isEmpty ? nil : name
        }
        var portEnd = hostEnd
        if hostEnd < bytes.endIndex, bytes[hostEnd] == .colon {
            portEnd = bytes[hostEnd...].firstIndex(of: .comma) ?? bytes.endIndex
            let written = try decoded(bytes[(hostEnd + 1)..<portEnd], tr("the port"))
            port = written.isEmpty ? nil : written
        }
        guard portEnd == bytes.endIndex else {
            throw .badAddress(shown, reason: tr("a list of hosts (%@) is not supported; give one host", Self.visible(bytes)))
        }
    }

    /// `name=value&…`, the query.
    private mutating func readParameters(_ bytes: ArraySlice<UInt8>) throws(PostgresStorageError) {
        for written in bytes.split(separator: .ampersand, omittingEmptySubsequences: false) {
            let pieces = written.split(separator: .equals, maxSplits: 2, omittingEmptySubsequences: false)
            let name = try decoded(pieces[0], tr("a parameter's name"))
            if name == "password", pieces.count > 1, !pieces[1].isEmpty { throw Self.passwordRefused(shown) }
            guard pieces.count < 3 else {
                throw .badAddress(shown, reason: tr("the parameter '%@' has more than one =; write = in a value as %%3D", Self.visible(written)))
            }
            // An empty value would mean "the default" to libpq: more likely a mistake.
            guard pieces.count == 2, !pieces[1].isEmpty else {
                throw .badAddress(shown, reason: tr("the parameter '%@' has no value", Self.visible(written)))
            }
            parameters.append((name, try decoded(pieces[1], tr("the parameter %@", Self.visible(name)))))
        }
    }

    /// `bytes` percent-decoded, as UTF-8; `part` names them in an error.
    private func decoded(_ bytes: ArraySlice<UInt8>, _ part: String) throws(PostgresStorageError) -> String {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            defer { index += 1 }
            guard bytes[index] == .percent else {
                result.append(bytes[index])
                continue
            }
            let token = bytes[index..<min(index + 3, bytes.endIndex)]
            guard token.count == 3, let byte = UInt8(String(decoding: token.dropFirst(), as: UTF8.self), radix: 16) else {
                throw .badAddress(shown, reason: tr("%@ has '%@', which is not a percent-encoded byte (%% and two hexadecimal digits)",
                                                    part, Self.visible(token)))
            }
            guard byte != 0 else { throw .badAddress(shown, reason: tr("%@ holds %%00, a NUL character, which PostgreSQL does not allow", part)) }
            result.append(byte)
            index += 2
        }
        guard let text = String(validating: result, as: UTF8.self) else {
            throw .badAddress(shown, reason: tr("%@ is not UTF-8 text once its percent-encoded bytes are decoded", part))
        }
        return text
    }

    /// Where what follows `scheme://` starts, or nil if `bytes` have no `://`.
    static func schemeEnd(of bytes: [UInt8]) -> Int? {
        let separator = Array("://".utf8)
        guard let colon = bytes.firstIndex(of: .colon), bytes[colon...].starts(with: separator) else { return nil }
        return colon + separator.count
    }

    static func isPostgres(_ scheme: ArraySlice<UInt8>) -> Bool {
        let name = String(decoding: scheme.dropLast(3), as: UTF8.self).lowercased()
        return name == "postgres" || name == "postgresql"
    }

    private static func isIPv6(_ address: String) -> Bool {
        // A zone (fe80::1%eth0) follows the address.
        let plain = address.split(separator: "%", maxSplits: 1, omittingEmptySubsequences: false)[0]
        var parsed = in6_addr()
        return inet_pton(AF_INET6, String(plain), &parsed) == 1
    }
}

extension UInt8 {
    static let slash = UInt8(ascii: "/"), question = UInt8(ascii: "?"), at = UInt8(ascii: "@"), colon = UInt8(ascii: ":")
    static let comma = UInt8(ascii: ","), openBracket = UInt8(ascii: "["), closeBracket = UInt8(ascii: "]")
    static let ampersand = UInt8(ascii: "&"), equals = UInt8(ascii: "="), percent = UInt8(ascii: "%")
}
