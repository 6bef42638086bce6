import GalleryRender
import Testing

@Suite("Markdown")
struct MarkdownTests {
    @Test func rendersCommonMarkWithSmartPunctuation() {
        #expect(Markdown.html("Some *light* and \"quotes\"") == "<p>Some <em>light</em> and “quotes”</p>\n")
    }

    /// A quote that pairs with nothing, or sits inside a word, keeps the text as typed: smart mode
    /// would make it a closing quote.
    @Test func anUnpairedQuoteStaysStraight() {
        #expect(Markdown.html("in\"description") == "<p>in&quot;description</p>\n")
        #expect(Markdown.html("a 12\" lens -- \"wide\"") == "<p>a 12&quot; lens -- &quot;wide&quot;</p>\n")
        #expect(Markdown.html("say \"hi\" -- ok") == "<p>say “hi” – ok</p>\n")
    }

    @Test func dropsRawHTML() {
        let html = Markdown.html("<script>alert(1)</script>\n\nText <b onclick=\"x\">bold</b>")
        #expect(!html.contains("<script"))
        #expect(!html.contains("<b "))
        #expect(html.contains("Text"))
    }

    @Test func unsafeLinksBecomeText() {
        #expect(Markdown.html("[click](javascript:alert(1)) and [data](data:text/html,x)") == "<p>click and data</p>\n")
        #expect(
            Markdown.html("[ok](https://example.com) [mail](mailto:a@b.c) [rel](../x)")
                == #"<p><a href="https://example.com">ok</a> <a href="mailto:a@b.c">mail</a> <a href="../x">rel</a></p>"#
                + "\n")
    }

    @Test func imagesBecomeLinksAndNestedOnesBecomeText() {
        #expect(
            Markdown.html("![a pixel](https://t.example/p.gif)")
                == #"<p><a href="https://t.example/p.gif">a pixel</a></p>"# + "\n")
        #expect(
            Markdown.html("![](https://t.example/p.gif)") == #"<p><a href="https://t.example/p.gif">image</a></p>"#
                + "\n")
        #expect(Markdown.html("![x ![inner](https://a.example/i.png)](javascript:1)") == "<p>x inner</p>\n")
        #expect(
            Markdown.html("![outer ![inner](https://a.example/i.png)](https://b.example/o.png)")
                == #"<p><a href="https://b.example/o.png">outer inner</a></p>"# + "\n")
        #expect(
            Markdown.html("[see ![pic](https://a.example/i.png)](https://b.example/)")
                == #"<p><a href="https://b.example/">see pic</a></p>"# + "\n")
    }

    @Test func headingsMoveBelowThePageHeadings() {
        #expect(Markdown.html("# Title\n\n###### Small") == "<h3>Title</h3>\n<h6>Small</h6>\n")
    }

    @Test func plainTextForMetaDescriptions() {
        #expect(
            Markdown.plainText("Some *light*\nand [a link](https://x.example).\n\n- one\n- two", limit: 200)
                == "Some light and a link. one two")
        #expect(Markdown.plainText("one two three four", limit: 10) == "one two…")
    }
}
