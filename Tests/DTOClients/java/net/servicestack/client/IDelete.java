package net.servicestack.client;

public interface IDelete {}
