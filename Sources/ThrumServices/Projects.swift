import HapticFormats

extension ServiceError {
    /// A project's failure with its status: 66 missing, 65 not a project (or a wrong value), 64 no such clip.
    package init(_ failure: HaspProject.Failure) {
        switch failure.kind {
        case .missing: self.init(.noInput, failure.message)
        case .invalid: self.init(.dataError, failure.message)
        case .unknownClip: self.init(.usage, failure.message)
        }
    }
}

extension HaspProject {
    /// Reads the Haptics Studio project at `path`.
    /// - Throws: ``ServiceError``: 66 missing, 65 not a project, located.
    package static func open(_ path: String) throws(ServiceError) -> HaspProject {
        do {
            return try HaspProject(path: path)
        } catch {
            throw ServiceError(error)
        }
    }

    /// The clip called `name`.
    /// - Throws: ``ServiceError`` 64 naming the clips (and the closest name).
    package func clip(_ name: String) throws(ServiceError) -> Clip {
        do {
            return try clip(named: name)
        } catch {
            throw ServiceError(error)
        }
    }
}
