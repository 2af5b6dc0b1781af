import Manifest
import SwiftSyntax

/// The app's own Capacitor plugins, read from their Swift: a class inheriting `CAPPlugin` with its
/// `jsName`, and the methods whose promise hands an authorization request's `success` to
/// JavaScript (`call.resolve(["granted": success])`). Their JavaScript side reaches them through
/// `registerPlugin('<jsName>')`; the request's result then crosses the bridge, and what the
/// JavaScript does with it is judged like any wrapper's result (question 2).
enum AppPlugins {
    /// The plugins by `jsName`, each described as a library whose methods are those requests.
    static func find(in sources: [ParsedSource]) -> [String: HealthKitLibrary] {
        var results: [String: [String: HealthKitLibrary.PluginRequestResult]] = [:]
        for source in sources {
            for call in source.calls(named: "requestAuthorization") {
                guard let method = enclosingPluginMethod(of: call), let jsName = jsName(of: method.plugin),
                      let (key, resolve) = resolvedSuccess(of: call) else { continue }
                let location = source.location(of: resolve)
                let place = "\(location.file.split(separator: "/").last.map(String.init) ?? location.file):\(location.line ?? 0)"
                results[jsName, default: [:]][method.name] = .init(key: key, evidence: place)
            }
        }
        return Dictionary(uniqueKeysWithValues: results.map { ($0.key, HealthKitLibrary.appPlugin(jsName: $0.key, requestResults: $0.value)) })
    }

    /// The `@objc func name(_ call: CAPPluginCall)` around `node`, and the `CAPPlugin` class it is in.
    private static func enclosingPluginMethod(of node: some SyntaxProtocol) -> (name: String, plugin: ClassDeclSyntax)? {
        var current = Syntax(node).parent
        while let syntax = current, !syntax.is(FunctionDeclSyntax.self) { current = syntax.parent }
        guard let function = current?.as(FunctionDeclSyntax.self),
              function.signature.parameterClause.parameters.contains(where: { $0.type.trimmedDescription == "CAPPluginCall" }) else { return nil }
        var outer = function.parent
        while let syntax = outer, !syntax.is(ClassDeclSyntax.self) { outer = syntax.parent }
        guard let plugin = outer?.as(ClassDeclSyntax.self),
              plugin.inheritanceClause?.inheritedTypes.contains(where: { $0.type.trimmedDescription == "CAPPlugin" }) == true else { return nil }
        return (function.name.text, plugin)
    }

    /// `public let jsName = "HealthKit"` in the class (Capacitor's `CAPBridgedPlugin`).
    private static func jsName(of plugin: ClassDeclSyntax) -> String? {
        for member in plugin.memberBlock.members {
            guard let variable = member.decl.as(VariableDeclSyntax.self) else { continue }
            for binding in variable.bindings where binding.pattern.trimmedDescription == "jsName" {
                guard let literal = binding.initializer?.value.as(StringLiteralExprSyntax.self), literal.segments.count == 1,
                      let text = literal.segments.first?.as(StringSegmentSyntax.self)?.content.text, !text.isEmpty else { return nil }
                return text
            }
        }
        return nil
    }

    /// In the request's completion, `call.resolve([KEY: success])` with `success` its first
    /// parameter: the key, and the `resolve` call.
    private static func resolvedSuccess(of request: FunctionCallExprSyntax) -> (String, FunctionCallExprSyntax)? {
        guard let closure = request.trailingClosure ?? request.arguments.last?.expression.as(ClosureExprSyntax.self),
              let success = firstParameter(of: closure) else { return nil }
        for token in closure.statements.tokens(viewMode: .sourceAccurate) where token.text == "resolve" {
            guard let member = token.parent?.parent?.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "resolve",
                  let resolve = member.parent?.as(FunctionCallExprSyntax.self),
                  let dictionary = resolve.arguments.first?.expression.as(DictionaryExprSyntax.self),
                  case .elements(let elements) = dictionary.content else { continue }
            for element in elements where element.value.as(DeclReferenceExprSyntax.self)?.baseName.text == success {
                guard let literal = element.key.as(StringLiteralExprSyntax.self), literal.segments.count == 1,
                      let key = literal.segments.first?.as(StringSegmentSyntax.self)?.content.text, !key.isEmpty else { continue }
                return (key, resolve)
            }
        }
        return nil
    }

    private static func firstParameter(of closure: ClosureExprSyntax) -> String? {
        guard let clause = closure.signature?.parameterClause else { return nil }
        if let list = clause.as(ClosureShorthandParameterListSyntax.self) { return list.first.map(\.name.text).flatMap { $0 == "_" ? nil : $0 } }
        if let list = clause.as(ClosureParameterClauseSyntax.self) {
            return list.parameters.first.map { $0.localName }.flatMap { $0 == "_" ? nil : $0 }
        }
        return nil
    }
}
