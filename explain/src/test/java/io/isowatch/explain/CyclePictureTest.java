package io.isowatch.explain;

import static io.isowatch.explain.ExplainFixturesTest.ok;
import static io.isowatch.explain.ExplainFixturesTest.step;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.anomaly.AnomalyType;
import io.isowatch.anomaly.Evidence;
import io.isowatch.anomaly.Finding;
import io.isowatch.anomaly.Txn;
import io.isowatch.history.AtomTable;
import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;

class CyclePictureTest {

    private final AtomTable atoms = new AtomTable();

    /** A cycle of n transactions, its edges cycling through every kind. */
    private static Finding.Cycle ring(int n) {
        List<Txn> txns = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            txns.add(ok(i, 10L * i + 1, i, "a:" + i + ":" + i + " r:" + (i + 100) + ":1,2,3"));
        }
        List<Finding.Step> steps = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Evidence ev;
            switch (i % 5) {
                case 0: ev = new Evidence.WriteWrite(i, 1, 2); break;
                case 1: ev = new Evidence.WriteRead(i, 3); break;
                case 2: ev = new Evidence.ReadWrite(i, i % 2 == 0, 4, 5); break;
                case 3: ev = new Evidence.Process(i); break;
                default: ev = new Evidence.Realtime(10L * i + 1, 5, 10L * i + 4, 3); break;
            }
            steps.add(step(txns.get(i), txns.get((i + 1) % n), ev));
        }
        return new Finding.Cycle(AnomalyType.G2_ITEM_REALTIME, steps);
    }

    private static Document parseXml(String svg) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        return f.newDocumentBuilder().parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 5, 8, 12})
    void svg_isXmlWithOneCirclePerTxnAndOnePathPerStep(int n) throws Exception {
        Document doc = parseXml(CycleSvg.render(ring(n), atoms));
        assertEquals("svg", doc.getDocumentElement().getLocalName());
        assertEquals(n, doc.getElementsByTagNameNS("*", "circle").getLength());
        NodeList paths = doc.getElementsByTagNameNS("*", "path");
        assertEquals(n, paths.getLength());
        for (int i = 0; i < paths.getLength(); i++) {
            String marker = ((Element) paths.item(i)).getAttribute("marker-end");
            assertTrue(marker.startsWith("url(#arrow-"), marker);
        }
        assertEquals(5, doc.getElementsByTagNameNS("*", "marker").getLength());
    }

    @Test
    void svg_colorsDashesLabelsAndTitle() throws Exception {
        ExplainFixturesTest.GSingle g = new ExplainFixturesTest.GSingle();
        String svg = CycleSvg.render(g.cycle, atoms);
        Document doc = parseXml(svg);
        NodeList paths = doc.getElementsByTagNameNS("*", "path");
        Element wr = (Element) paths.item(0);
        Element rw = (Element) paths.item(1);
        assertEquals("#C000A5", wr.getAttribute("stroke"));
        assertEquals("", wr.getAttribute("stroke-dasharray"));
        assertEquals("#5B00C0", rw.getAttribute("stroke"));
        assertTrue(!rw.getAttribute("stroke-dasharray").isEmpty());
        assertTrue(svg.contains(">wr 255: 8</text>"), svg);
        assertTrue(svg.contains(">rw 256: 2 &lt; 3</text>"), svg);
        assertTrue(svg.contains("G-single-item: a cycle of 2 transactions"), svg);
        assertTrue(svg.contains("legend"), svg);
    }

    @Test
    void svg_escapesStringAtomsAndDropsCharactersXmlCannotHold() throws Exception {
        long k = atoms.ofString("<k&\"'>\u0001");
        Txn a = new Txn(1, 0, -1, new Op(1, -1, OpType.OK, 0, List.of(new MicroOp.Append(k, 1))));
        Txn b = new Txn(2, 2, -1, new Op(3, -1, OpType.INFO, 1, List.of(new MicroOp.Read(k, new long[] {1}))));
        Finding.Cycle c = new Finding.Cycle(AnomalyType.G1C, List.of(
                step(a, b, new Evidence.WriteRead(k, 1)), step(b, a, new Evidence.WriteRead(k, 1))));
        Document doc = parseXml(CycleSvg.render(c, atoms));
        assertEquals(2, doc.getElementsByTagNameNS("*", "circle").getLength());
        String dot = CycleDot.render(c, atoms);
        assertTrue(dot.contains("wr \\\"<k&\\\\\\\"'>"), dot);
    }

    @Test
    void dot_hasNodesAndEachEdgeWithKindColorAndStyle() {
        ExplainFixturesTest.GSingle g = new ExplainFixturesTest.GSingle();
        String dot = CycleDot.render(g.cycle, atoms);
        assertTrue(dot.startsWith("digraph cycle {\n"), dot);
        assertTrue(dot.endsWith("}\n"), dot);
        assertTrue(dot.contains("  T1 [label=\"T1  index 3, process 0, :ok\\la 255 8\\la 256 3\\l\", color=\"#0058AD\""), dot);
        assertTrue(dot.contains("  T1 -> T2 [label=\"wr 255: 8\", color=\"#C000A5\", fontcolor=\"#C000A5\"];\n"), dot);
        assertTrue(dot.contains("  T2 -> T1 [label=\"rw 256: 2 < 3\", color=\"#5B00C0\", fontcolor=\"#5B00C0\","
                + " style=dashed];\n"), dot);
        Finding.Cycle big = ring(12);
        String bigDot = CycleDot.render(big, atoms);
        for (Finding.Step s : big.steps()) {
            String edge = "T" + (s.from().id() + 1) + " -> T" + (s.to().id() + 1) + " [label=\""
                    + StepText.label(s.evidence(), atoms) + "\"";
            assertTrue(bigDot.contains(edge), edge);
        }
    }
}
