import Testing

@testable import KarcLanguage
@testable import KarcSession
@testable import KarcShell

@Suite("Command builder: typed commands from lines, and errors that help", .timeLimit(.minutes(1)))
struct CommandBuilderTests {
    let builder = CommandBuilder(
        catalog: Catalog(targets: [
            TargetSchema(name: "counter", kind: "dispatcher", commands: [CommandSchema(Increment.self), CommandSchema(Reset.self)]),
            TargetSchema(name: "identity", kind: "store", commands: [CommandSchema(RegisterUser.self), CommandSchema(Strict.self)]),
        ]))

    func build(_ line: String) throws(LineError) -> any Sendable {
        guard case .command(let invocation) = try LineParser.parse(line) else {
            throw LineError(column: 0, "not a command")
        }
        return try builder.build(invocation).value
    }

    func failure(_ line: String) -> LineError? {
        do {
            _ = try build(line)
            return nil
        } catch {
            return error
        }
    }

    @Test func aCommandWithFieldsDecodesToItsType() throws {
        let increment = try #require(try build("counter.increment value=5") as? Increment)
        #expect(increment.value == 5)
        #expect(try (build("counter.increment") as? Increment)?.value == 1, "the default applies")
        #expect(try build("counter.reset") is Reset)
    }

    @Test func namesMatchCaseInsensitivelyAndInEitherCase() throws {
        let user = try #require(try build(#"identity.registerUser user-email=jill@example.com USERPASSWORD="s3cret pass""#) as? RegisterUser)
        #expect(user.userEmail == "jill@example.com")
        #expect(user.userPassword == "s3cret pass")
        #expect(try build("COUNTER.Increment value=2") is Increment)
    }

    @Test func everyFieldTypeTakesItsValues() throws {
        let user = try #require(
            try build(
                #"identity.register-user user-email=a@b.co user-password=123456 age=40 score=7 is-admin=true mood=grumpy tags=[x, "y z"] address={"street": "Main", "number": 1}"#
            ) as? RegisterUser)
        #expect(user.userPassword == "123456", "a number written for a String field is the string")
        #expect(user.age == 40)
        #expect(user.score == 7.0)
        #expect(user.isAdmin == true)
        #expect(user.mood == .grumpy)
        #expect(user.tags == ["x", "y z"])
        #expect(user.address == Address(street: "Main", number: 1))
        let single = try #require(try build("identity.register-user user-email=a user-password=b tags=solo age=nil") as? RegisterUser)
        #expect(single.tags == ["solo"])
        #expect(single.age == nil)
    }

    @Test func aJSONBodyDecodesDirectly() throws {
        let user = try #require(try build(#"identity.register-user {"userEmail": "a@b.co", "userPassword": "x"}"#) as? RegisterUser)
        #expect(user.userEmail == "a@b.co")
        let strict = try #require(try build(#"identity.strict {"code": "abc"}"#) as? Strict)
        #expect(strict.code == "abc")
    }

    @Test(arguments: [
        ("countr.increment", 1, "unknown target 'countr'; did you mean 'counter'? Targets: counter, identity"),
        ("counter.incremnt", 9, "unknown command 'incremnt' for counter; did you mean 'increment'? Commands: increment, reset"),
        ("counter.increment valeu=1", 19, "unknown field 'valeu' for increment; did you mean 'value'? Fields: value"),
        ("counter.increment value=two", 25, #"field 'value' expects Int, got "two""#),
        ("counter.increment value=2.5", 25, "field 'value' expects Int, got 2.5"),
        ("counter.increment value=1 value=2", 27, "field 'value' is given twice"),
        ("counter.reset now=1", 15, "unknown field 'now' for reset. It takes no fields."),
        ("identity.register-user user-email=a", 10, "identity.register-user: missing required field user-password=String"),
        ("identity.register-user", 10, "missing required fields user-email=String user-password=String"),
        ("identity.register-user user-email=nil user-password=x", 35, "field 'user-email' is required (String); it cannot be nil"),
        (
            "identity.register-user user-email=a user-password=b mood=grumy", 58,
            "field 'mood' expects one of happy, grumpy, got \"grumy\"; did you mean 'grumpy'?"
        ),
        ("identity.register-user user-email=a user-password=b is-admin=yes", 62, #"field 'is-admin' expects Bool, got "yes""#),
        (
            "identity.register-user user-email=a user-password=b address=home", 61,
            #"field 'address' expects a {json} Address, or its fields as address.FIELD=value, got "home""#
        ),
        ("identity.register-user user-email=a user-password=b tags=[1, [2]]", 62, "field 'tags' expects String, got [2]"),
        (#"identity.register-user user-email=a user-password=b address={"street": 1, "number": 1}"#, 10, "field 'address.street' expects String"),
        (#"identity.register-user user-email=a user-password=b address={"street": "x"}"#, 10, "missing required field 'number' in field 'address'"),
        (#"identity.register-user {"userEmail": 5}"#, 38, "field 'user-email' expects String, got a number"),
        (#"identity.register-user {"userEmail": "#, 24, "not a valid JSON object"),
        (#"identity.strict {"code": "toolong"}"#, 10, "identity.strict rejected the input: Invalid()"),
        ("identity.strict code=abc", 10, #"identity.strict takes its fields as a JSON object: identity.strict {"field": value}"#),
    ])
    func badCommandsSayWhatIsWrongWhereAndWhatIsAccepted(_ line: String, _ column: Int, _ message: String) {
        let error = failure(line)
        #expect(error?.column == column, "\(line): \(String(describing: error))")
        #expect(error?.message.contains(message) == true, "\(line): \(String(describing: error))")
    }
}
