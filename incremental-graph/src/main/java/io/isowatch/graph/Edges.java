package io.isowatch.graph;

import io.isowatch.collect.BytePages;

import java.util.Arrays;

/**
 * A reusable list of one transaction's edges, each as the transaction at its other end and its
 * kind: what {@link DependencyGraph#outEdges} and {@link DependencyGraph#inEdges} fill. A walk
 * keeps one per level of nesting and clears nothing itself; filling replaces the contents. Not
 * thread-safe.
 */
public final class Edges {

    private int[] nodes = new int[16];
    private byte[] kinds = new byte[16];
    private int size;

    /** Number of edges held. */
    public int size() {
        return size;
    }

    /** The other end of edge {@code i}. */
    public int node(int i) {
        return nodes[i];
    }

    /** The kind of edge {@code i}, as an {@link EdgeKind} ordinal. */
    public int kind(int i) {
        return kinds[i];
    }

    void clear() {
        size = 0;
    }

    void add(int node, int kind) {
        if (size == nodes.length) {
            nodes = Arrays.copyOf(nodes, size * 2);
            kinds = Arrays.copyOf(kinds, size * 2);
        }
        nodes[size] = node;
        kinds[size++] = (byte) kind;
    }

    /**
     * Appends {@code count} edges of {@code kind} whose other ends are {@code node} minus the
     * varints at {@code at} in {@code arena}; returns the position after them.
     */
    long addBelow(int node, int kind, BytePages arena, long at, int count) {
        if (size + count > nodes.length) {
            int cap = Math.max(nodes.length * 2, size + count);
            nodes = Arrays.copyOf(nodes, cap);
            kinds = Arrays.copyOf(kinds, cap);
        }
        long end = arena.getVarints(at, count, nodes, size);
        for (int i = size; i < size + count; i++) {
            nodes[i] = node - nodes[i];
        }
        Arrays.fill(kinds, size, size + count, (byte) kind);
        size += count;
        return end;
    }

    @Override
    public String toString() {
        StringBuilder out = new StringBuilder("[");
        for (int i = 0; i < size; i++) {
            out.append(i == 0 ? "" : ", ").append(EdgeKind.values()[kinds[i]].elleName()).append(' ').append(nodes[i]);
        }
        return out.append(']').toString();
    }
}
