// Apple's AppIntents module re-exports Foundation, so intent code uses `UUID`, `Date` and `URL`
// with only `import AppIntents`. The same holds here with `import VoiceIntents`.
@_exported import Foundation
