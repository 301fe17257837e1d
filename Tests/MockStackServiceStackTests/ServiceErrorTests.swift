import Testing
@testable import MockStackServiceStack

@Suite struct ServiceErrorTests {
    @Test(arguments: [
        (ServiceError.Kind.exception, 500, "Exception"),
        (.notImplemented, 405, "NotImplementedException"),
        (.notSupported, 405, "NotSupportedException"),
        (.fileNotFound, 404, "FileNotFoundException"),
        (.argument, 400, "ArgumentException"),
        (.argumentNull, 400, "ArgumentNullException"),
        (.serialization, 400, "SerializationException"),
        (.format, 400, "FormatException"),
        (.authentication, 401, "AuthenticationException"),
        (.unauthorizedAccess, 403, "UnauthorizedAccessException"),
        (.optimisticConcurrency, 409, "OptimisticConcurrencyException"),
        (.custom(fullName: "Test.ServiceInterface.Custom400Exception", status: 400), 400, "Custom400Exception"),
    ] as [(ServiceError.Kind, Int, String)])
    func mapsExceptionsToStatusAndErrorCode(kind: ServiceError.Kind, status: Int, errorCode: String) {
        let error = ServiceError(kind, "boom")
        #expect(error.status == status)
        #expect(error.errorCode == errorCode)
        #expect(error.message == "boom")
        #expect(error.fieldErrors.isEmpty)
    }

    @Test func httpErrorsNameTheirStatus() {
        let notFound = ServiceError.http(404, "What you're looking for isn't here")
        #expect(notFound.status == 404)
        #expect(notFound.errorCode == "NotFound")
        #expect(ServiceError.http(409, "We haz Conflict!").errorCode == "Conflict")
        #expect(ServiceError.http(401, "You shall not pass!").errorCode == "Unauthorized")
        let text = ServiceError.http(500, text: "ThrowHttpError")
        #expect(text.errorCode == "ThrowHttpError")
        #expect(text.message == "ThrowHttpError")
    }

    @Test func argumentErrorsAddAFieldError() {
        let error = ServiceError.argument(.argumentNull, "Value cannot be null.", parameter: "Audio")
        #expect(error.status == 400)
        #expect(error.errorCode == "ArgumentNullException")
        #expect(error.message == "Value cannot be null. (Parameter 'Audio')")
        #expect(error.fieldErrors == [FieldError(errorCode: "ArgumentNullException", fieldName: "Audio", message: "Value cannot be null.")])
    }

    @Test func unknownOperation() {
        #expect(ServiceError.operationDoesNotExist.status == 405)
        #expect(ServiceError.operationDoesNotExist.errorCode == "NotImplementedException")
        #expect(ServiceError.operationDoesNotExist.message == "The operation does not exist for this service")
    }
}
