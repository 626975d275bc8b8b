import Foundation

/// PostgreSQL's password file (`~/.pgpass`, or the file `PGPASSFILE` names), read as libpq
/// reads it: lines of `host:port:database:user:password`, where `*` matches anything, `\`
/// escapes `:` and `\`, lines starting with `#` are comments, and the first line that
/// matches gives the password. A file that its group or others can read is not used, with
/// a warning (``warning``), as `psql` does.
public struct PasswordFile: Sendable {
    /// One line of the file.
    struct Entry: Sendable, Equatable {
        var host, port, database, user, password: String

        func matches(_ address: PostgresAddress) -> Bool {
            func field(_ pattern: String, _ value: String) -> Bool { pattern == "*" || pattern == value }
            return field(host, address.passwordFileHost) && field(port, String(address.port))
                && field(database, address.database) && field(user, address.user)
        }
    }

    let entries: [Entry]
    /// Why the file was not used, if it was not (too open).
    public let warning: String?

    /// The lines of `text`.
    init(text: String) {
        entries = text.split(whereSeparator: \.isNewline).compactMap(Self.entry(of:))
        warning = nil
    }

    private init(entries: [Entry], warning: String?) {
        self.entries = entries
        self.warning = warning
    }

    /// The password file of this user: `PGPASSFILE`'s, else `~/.pgpass`. Empty when there
    /// is none, or when it cannot be used (`warning` says why).
    public static func current(environment: [String: String] = ProcessInfo.processInfo.environment) -> PasswordFile {
        let path = environment["PGPASSFILE"] ?? (NSHomeDirectory() as NSString).appendingPathComponent(".pgpass")
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              attributes[.type] as? FileAttributeType == .typeRegular else { return PasswordFile(entries: [], warning: nil) }
        let permissions = (attributes[.posixPermissions] as? NSNumber)?.intValue ?? 0
        guard permissions & 0o077 == 0 else {
            return PasswordFile(entries: [], warning: tr("password file %@ has group or world access; permissions should be u=rw (0600) or less", path))
        }
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            return PasswordFile(entries: [], warning: tr("password file %@ cannot be read as UTF-8 text", path))
        }
        return PasswordFile(text: text)
    }

    /// The password for `address`: the first line that matches it.
    public func password(for address: PostgresAddress) -> String? {
        entries.first { $0.matches(address) }?.password
    }

    /// The five fields of `line`, or nil for a comment, a blank or a line without five.
    private static func entry(of line: Substring) -> Entry? {
        guard !line.hasPrefix("#") else { return nil }
        var fields: [String] = []
        var field = ""
        var escaped = false
        for character in line {
            if escaped {
                field.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == ":" && fields.count < 4 {
                fields.append(field)
                field = ""
            } else {
                field.append(character)
            }
        }
        fields.append(field)
        guard fields.count == 5 else { return nil }
        return Entry(host: fields[0], port: fields[1], database: fields[2], user: fields[3], password: fields[4])
    }
}

extension PostgresAddress {
    /// The password to connect with: `PGPASSWORD`, else the password file's line for this
    /// address, else none (the server may not ask for one).
    public func password(environment: [String: String] = ProcessInfo.processInfo.environment,
                         file: PasswordFile? = nil) -> String? {
        if let password = environment["PGPASSWORD"] { return password }
        return (file ?? PasswordFile.current(environment: environment)).password(for: self)
    }
}
