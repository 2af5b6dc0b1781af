/// A `project.pbxproj` written from a list of targets, for tests that need a real project shape
/// without spelling out its object graph by hand.
public enum XcodeProjectFixture {
    public struct Target {
        public var name: String
        public var type = "com.apple.product-type.application"
        public var sources: [String] = []
        public var frameworks: [String] = []
        public var settings: [String: String] = [:]
        /// Package products linked with no package reference (a local package added as a folder),
        /// or from the `XCLocalSwiftPackageReference` at `localPackage`.
        public var packageProducts: [String] = []
        public var localPackage: String?

        public init(name: String, type: String = "com.apple.product-type.application", sources: [String] = [], frameworks: [String] = [],
                    settings: [String: String] = [:], packageProducts: [String] = [], localPackage: String? = nil) {
            self.name = name; self.type = type; self.sources = sources; self.frameworks = frameworks; self.settings = settings
            self.packageProducts = packageProducts; self.localPackage = localPackage
        }
    }

    /// A project.pbxproj with the targets, their Swift files (paths relative to the project's
    /// folder), the frameworks each links by name, and their Release settings.
    public static func pbxproj(_ targets: [Target], folders: [String] = []) -> String {
        var objects = ""
        var children: [String] = []
        for (f, folder) in folders.enumerated() {
            objects += "RD\(f) = {isa = PBXFileReference; lastKnownFileType = folder; path = \"\(folder)\"; sourceTree = \"<group>\";};\n"
            children.append("RD\(f)")
        }
        var targetIDs: [String] = []
        for (t, target) in targets.enumerated() {
            var sourceFiles: [String] = [], frameworkFiles: [String] = []
            for (f, path) in target.sources.enumerated() {
                objects += "R\(t)S\(f) = {isa = PBXFileReference; path = \"\(path)\"; sourceTree = \"<group>\";};\n"
                objects += "B\(t)S\(f) = {isa = PBXBuildFile; fileRef = R\(t)S\(f);};\n"
                children.append("R\(t)S\(f)")
                sourceFiles.append("B\(t)S\(f)")
            }
            for (f, name) in target.frameworks.enumerated() {
                objects += "R\(t)F\(f) = {isa = PBXFileReference; path = \(name).framework; sourceTree = BUILT_PRODUCTS_DIR;};\n"
                objects += "B\(t)F\(f) = {isa = PBXBuildFile; fileRef = R\(t)F\(f);};\n"
                frameworkFiles.append("B\(t)F\(f)")
            }
            let products = target.packageProducts.enumerated().map { "PP\(t)_\($0.offset)" }
            if let path = target.localPackage {
                objects += "LP\(t) = {isa = XCLocalSwiftPackageReference; relativePath = \"\(path)\";};\n"
            }
            for (p, product) in target.packageProducts.enumerated() {
                let package = target.localPackage == nil ? "" : " package = LP\(t);"
                objects += "PP\(t)_\(p) = {isa = XCSwiftPackageProductDependency;\(package) productName = \(product);};\n"
            }
            let settings = (["PRODUCT_NAME": "$(TARGET_NAME)"].merging(target.settings) { $1 }).sorted { $0.key < $1.key }
                .map { "\($0.key) = \"\($0.value)\";" }.joined(separator: " ")
            objects += """
            T\(t) = {isa = PBXNativeTarget; name = "\(target.name)"; productName = "\(target.name)"; productType = "\(target.type)"; buildConfigurationList = TL\(t); buildPhases = (PS\(t), PF\(t)); dependencies = (); packageProductDependencies = (\(products.joined(separator: ", ")));};
            PS\(t) = {isa = PBXSourcesBuildPhase; files = (\(sourceFiles.joined(separator: ", ")));};
            PF\(t) = {isa = PBXFrameworksBuildPhase; files = (\(frameworkFiles.joined(separator: ", ")));};
            TL\(t) = {isa = XCConfigurationList; buildConfigurations = (TR\(t)); defaultConfigurationName = Release;};
            TR\(t) = {isa = XCBuildConfiguration; name = Release; buildSettings = {\(settings)};};

            """
            targetIDs.append("T\(t)")
        }
        return """
        // !$*UTF8*$!
        { archiveVersion = 1; objectVersion = 56; objects = {
        P = {isa = PBXProject; mainGroup = G; targets = (\(targetIDs.joined(separator: ", "))); buildConfigurationList = PL;};
        G = {isa = PBXGroup; children = (\(children.joined(separator: ", "))); sourceTree = "<group>";};
        PL = {isa = XCConfigurationList; buildConfigurations = (PR); defaultConfigurationName = Release;};
        PR = {isa = XCBuildConfiguration; name = Release; buildSettings = {};};
        \(objects)}; rootObject = P; }
        """
    }
}
