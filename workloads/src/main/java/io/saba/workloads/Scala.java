package io.saba.workloads;

import java.io.Serializable;
import scala.reflect.ClassTag;
import scala.reflect.ClassTag$;
import scala.runtime.AbstractFunction1;
import scala.runtime.AbstractFunction2;
import scala.runtime.AbstractFunction3;

/** GraphX's API is Scala's: class tags and serializable Scala functions from Java lambdas. */
final class Scala {
    private Scala() {
    }

    static <T> ClassTag<T> tag(Class<T> c) {
        return ClassTag$.MODULE$.apply(c);
    }

    interface F1<A, B> extends Serializable {
        B apply(A a);
    }

    interface F2<A, B, C> extends Serializable {
        C apply(A a, B b);
    }

    interface F3<A, B, C, D> extends Serializable {
        D apply(A a, B b, C c);
    }

    static <A, B> scala.Function1<A, B> fn(F1<A, B> f) {
        return new Fn1<>(f);
    }

    static <A, B, C> scala.Function2<A, B, C> fn(F2<A, B, C> f) {
        return new Fn2<>(f);
    }

    static <A, B, C, D> scala.Function3<A, B, C, D> fn(F3<A, B, C, D> f) {
        return new Fn3<>(f);
    }

    private static final class Fn1<A, B> extends AbstractFunction1<A, B> implements Serializable {
        private final F1<A, B> f;

        Fn1(F1<A, B> f) {
            this.f = f;
        }

        @Override
        public B apply(A a) {
            return f.apply(a);
        }
    }

    private static final class Fn2<A, B, C> extends AbstractFunction2<A, B, C> implements Serializable {
        private final F2<A, B, C> f;

        Fn2(F2<A, B, C> f) {
            this.f = f;
        }

        @Override
        public C apply(A a, B b) {
            return f.apply(a, b);
        }
    }

    private static final class Fn3<A, B, C, D> extends AbstractFunction3<A, B, C, D> implements Serializable {
        private final F3<A, B, C, D> f;

        Fn3(F3<A, B, C, D> f) {
            this.f = f;
        }

        @Override
        public D apply(A a, B b, C c) {
            return f.apply(a, b, c);
        }
    }
}
