package net.servicestack.client;

import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;

@Retention(RetentionPolicy.RUNTIME)
public @interface Api {
    String Description() default "";
    String Name() default "";
    int BodyParameter() default 0;
    boolean IsRequired() default false;
}
