import Foundation
import SiteServer
import XCTest

/// Issue 33, case 5: `serve` on loopback answered `Host: 127.x.evil.example`, a name anyone can
/// register and rebind to 127.0.0.1. Only names no one can own pass: `localhost` and literal
/// loopback addresses, with an optional port.
final class LoopbackHostTests: XCTestCase {
    func testLocalhostAndLiteralLoopbackAddressesPass() {
        for host in ["localhost", "LocalHost:8000", "localhost:", "127.0.0.1", "127.0.0.1:8000", "127.1.2.254:65535", "127.255.255.255",
                     "[::1]", "[::1]:8000", "[0:0:0:0:0:0:0:1]:80"] {
            XCTAssertTrue(LoopbackHost.accepts(host), host)
        }
    }

    func testNamesSomeoneCanRegisterAreRefused() {
        for host in ["127.x.evil.example", "127.0.0.evil", "127.0.0.1.nip.io", "127.0.0.1.evil.example:8000", "127.a.b.c", "127.0.0.1x",
                     "localhost.evil.example", "evil.localhost", "localhost.", "attacker.example:8000", "127.0.0.256", "127.0.0.1000",
                     "127.0.0", "127.0.0.0.1", "127..0.1", "0x7f.0.0.1", "127.0.0.+1", "127.0.0.١", "10.0.0.1", "0.0.0.0",
                     "localhost:80a", "localhost:123456", "127.0.0.1:8000:1", "[::1]x", "[::2]", "[::ffff:8.8.8.8]", "[::1", "::1", "", ":8000"] {
            XCTAssertFalse(LoopbackHost.accepts(host), host)
        }
    }
}
