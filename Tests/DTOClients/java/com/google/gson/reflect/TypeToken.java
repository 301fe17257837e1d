package com.google.gson.reflect;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;

/** A stand-in for Gson's TypeToken: an anonymous subclass captures its type argument. */
public class TypeToken<T> {
    private final Type type;

    protected TypeToken() {
        type = ((ParameterizedType) getClass().getGenericSuperclass()).getActualTypeArguments()[0];
    }

    public final Type getType() {
        return type;
    }
}
