package net.servicestack.client;

import java.util.HashMap;

/** A stand-in for the client library's field error. */
public class ResponseError {
    public String errorCode = null;
    public String fieldName = null;
    public String message = null;
    public HashMap<String, String> meta = null;
}
