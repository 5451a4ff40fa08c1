import Compose
import Testing

@Suite("Validation: rules, fields, array fields, the builder", .timeLimit(.minutes(1)))
struct ValidationTests {
    @Test(arguments: [
        ("jill@example.com", true), ("j.v+tag_1%x@mail.example.co", true), ("a-b@x-y.io", true),
        ("", false), ("jill", false), ("jill@", false), ("@example.com", false), ("jill@example", false),
        ("jill@@example.com", false), ("jill@example.c", false), ("jill@example.c0m", false),
        ("jill @example.com", false), ("jill@exa mple.com", false), ("jöll@example.com", false),
    ])
    func emailAcceptsOnlyAddressShapedStrings(_ text: String, _ valid: Bool) {
        #expect(Rule<String>.email.validate(text) == valid, "\(text)")
    }

    @Test func nonEmptyRejectsOnlyEmptyValues() {
        #expect(Rule<String>.nonEmpty.validate("x"))
        #expect(!Rule<String>.nonEmpty.validate(""))
        #expect(!Rule<[Int]>.nonEmpty.validate([]))
    }

    @Test func lengthCountsCharactersWithinItsRange() {
        let rule = Rule<String>.length(6...8)
        #expect(!rule.validate("12345"))
        #expect(rule.validate("123456"))
        #expect(rule.validate("éééééééé"), "characters, not bytes")
        #expect(!rule.validate("123456789"))
        #expect(Rule<String>.length(3...).validate(String(repeating: "x", count: 10_000)))
        #expect(Rule<String>.length(3...).requirement == "must be at least 3 characters long")
        #expect(Rule<[Int]>.length(1...2).requirement == "must have 1 to 2 elements")
        #expect(Rule<[Int]>.length(1...).validate([1]))
    }

    @Test func equalComparesWithTheOtherValue() {
        #expect(Rule<String>.equal(to: "secret").validate("secret"))
        #expect(!Rule<String>.equal(to: "secret").validate("Secret"))
    }

    @Test func aUserDefinedRuleWorksLikeABuiltInOne() {
        let validation = Validation {
            Field("Jill", rules: .lowercase)
            Field("jill", rules: .lowercase)
        }
        #expect(validation.failures == [ValidationFailure(rule: "lowercase", message: nil)])
    }

    struct LogIn {
        var email = ""
        var password = ""

        @ValidationBuilder
        var plain: Validation {
            Field(email, rules: .nonEmpty, .email)
            Field(password, rules: .length(6...1000))
        }

        @ValidationBuilder
        var withMessages: Validation {
            Field(
                email,
                rules: [
                    .nonEmpty: "Email address must be non-empty",
                    .email: "Invalid email address format",
                ])
            Field(
                password,
                rules: [
                    .length(6...1000): "Password must be at least 6 characters long"
                ])
        }
    }

    @Test func thePlainFormMakesTheValidationInvalidWithoutMessages() {
        let state = LogIn(email: "jill", password: "123")
        #expect(!state.plain.isValid)
        #expect(state.plain.errors.isEmpty)
        #expect(state.plain.failures.map(\.rule) == ["email", "length(6...1000)"])
        #expect(LogIn(email: "jill@example.com", password: "123456").plain.isValid)
    }

    @Test func theMessageFormReportsTheFirstFailedRuleOfEachFieldInDeclarationOrder() {
        #expect(
            LogIn().withMessages.errors == [
                "Email address must be non-empty",
                "Password must be at least 6 characters long",
            ])
        #expect(LogIn(email: "jill", password: "123456").withMessages.errors == ["Invalid email address format"])
        #expect(LogIn(email: "jill@example.com", password: "123456").withMessages.isValid)
    }

    @Test func aNamedFieldWritesMessagesThatNameIt() {
        let validation = Validation {
            Field("jill", named: "email", rules: .nonEmpty, .email)
            Field("123", named: "password", rules: .length(6...))
        }
        #expect(
            validation.errors == [
                "email must be an email address like name@example.com",
                "password must be at least 6 characters long",
            ])
    }

    struct Article {
        var title: String
    }

    @Test func arrayFieldChecksEveryElement() {
        let good = [Article(title: "One"), Article(title: "Two")]
        let bad = [Article(title: "One"), Article(title: ""), Article(title: String(repeating: "x", count: 91))]
        #expect(Validation { ArrayField(good, path: \Article.title, rules: .nonEmpty, .length(0...90)) }.isValid)
        let failed = Validation { ArrayField(bad, path: \Article.title, rules: .nonEmpty, .length(0...90)) }
        #expect(failed.failures == [ValidationFailure(rule: "nonEmpty", message: nil)])
        let messages = Validation {
            ArrayField(bad, path: \Article.title, rules: [.length(1...90): "Titles are 1 to 90 characters"])
        }
        #expect(messages.errors == ["Titles are 1 to 90 characters"])
    }

    @Test func arrayFieldTreatsAnEmptyArrayAsItIsTold() {
        #expect(Validation { ArrayField([Article](), validIfEmpty: true, path: \.title, rules: .nonEmpty) }.isValid)
        let empty = Validation {
            ArrayField([Article](), validIfEmpty: false, emptyMessage: "Add an article", path: \.title, rules: [:])
        }
        #expect(empty.errors == ["Add an article"])
        #expect(!Validation { ArrayField([Article](), validIfEmpty: false, path: \.title, rules: .nonEmpty) }.isValid)
    }

    @Test func theBuilderTakesConditionsLoopsAndNestedValidations() {
        let requirePhone = true
        let tags = ["ok", ""]
        let nested = Validation { Field("", rules: [.nonEmpty: "nested"]) }
        let validation = Validation {
            if requirePhone {
                Field("", rules: [.nonEmpty: "phone"])
            }
            if !requirePhone {
                Field("", rules: [.nonEmpty: "never"])
            } else {
                Field("x", rules: [.nonEmpty: "never either"])
            }
            for (index, tag) in tags.enumerated() {
                Field(tag, rules: [.nonEmpty: "tag \(index)"])
            }
            nested
        }
        #expect(validation.errors == ["phone", "tag 1", "nested"])
    }
}

extension Rule where Value == String {
    static var lowercase: Rule {
        Rule("lowercase", "must be lowercase") { $0 == $0.lowercased() }
    }
}
